/*
 * The app store: the session's own messages (the welcome's player, registered, the own
 * profile), and the composed client on a fake socket: the token kept, everything held asked for
 * again after each welcome, one owner per message type.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { reduceWith } from '../lib/feature';
import { KEYS } from '../lib/storage';
import { welcome } from '../net/fakeSocket';
import { fullGame } from '../net/fixtures';
import type { ServerMessage } from '../net/protocol';
import { initialAppState, sessionReducers, welcomedPlayer, type AppState } from './store';
import { clientOnFakeSocket } from './testClient';

/** The session's part of the app state after a message (the welcome included). */
function reduceSession(state: AppState, msg: ServerMessage): AppState {
  return msg.type === 'welcome' ? { ...state, me: welcomedPlayer(msg) } : reduceWith(sessionReducers, state, msg, 0);
}

describe('the session', () => {
  it('takes the player from the welcome', () => {
    const s = reduceSession(initialAppState, {
      type: 'welcome',
      protocol: 1,
      player: { id: 'p1', name: 'Ann' },
      token: 't',
      games: [fullGame()],
    });
    expect(s.me).toEqual({ id: 'p1', name: 'Ann', token: 't' });
  });

  it('takes the new name when this guest registers', () => {
    let s = reduceSession(initialAppState, { type: 'welcome', protocol: 1, player: { id: 'p1', name: 'Guest1' }, token: 't', games: [] });
    s = reduceSession(s, { type: 'registered', player: { id: 'p1', name: 'Ann', registered: true } });
    expect(s.me).toMatchObject({ id: 'p1', name: 'Ann', registered: true, token: 't' });
  });

  it('tells from the own profile whether this player has an account', () => {
    let s = reduceSession(initialAppState, { type: 'welcome', protocol: 1, player: { id: 'p1', name: 'ann' }, token: 't', games: [] });
    const profile = { id: 'p1', name: 'ann', registered: true, bot: false, online: true, created_at: 0, username: 'ann', ratings: {} };
    s = reduceSession(s, { type: 'player', player: profile });
    expect(s.me).toMatchObject({ registered: true });
    expect(reduceSession(s, { type: 'player', player: { ...profile, id: 'other', registered: false } })).toBe(s);
  });
});

describe('the composed client', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('keeps the token and resynchronises everything held after each welcome', () => {
    const { f, storage, client } = clientOnFakeSocket();
    const releaseLobby = client.lobby.hold();
    const releaseGame = client.game.hold('g1');
    welcome(f.current, [], 'tok1');
    expect(storage.get(KEYS.token)).toBe('tok1');
    expect(f.current.last('lobby_subscribe')).toBeDefined();
    expect(f.current.last('watch')).toMatchObject({ game: 'g1' });

    f.current.drop();
    vi.advanceTimersByTime(300);
    f.current.open();
    expect(f.current.last('hello')).toMatchObject({ token: 'tok1' });
    welcome(f.current, [], 'tok1');
    expect(f.current.last('lobby_subscribe')).toBeDefined();
    expect(f.current.last('watch')).toMatchObject({ game: 'g1' });

    releaseGame();
    expect(f.current.last('unwatch')).toMatchObject({ game: 'g1' });
    releaseLobby();
    expect(f.current.last('lobby_unsubscribe')).toBeDefined();
  });

  it('dispatches each message type to the one feature that owns it', () => {
    const { f, client } = clientOnFakeSocket();
    const owned = client.app.ownedTypes();
    expect(new Set(owned).size).toBe(owned.length);
    for (const type of ['move', 'game', 'seeks', 'challenge_removed', 'live_games', 'analysis_done', 'player']) {
      expect(owned).toContain(type);
    }
    // A second owner is refused.
    expect(() => client.app.use({ handlers: { move: () => undefined } })).toThrow('two features handle "move"');
    welcome(f.current, [fullGame()]);
    f.current.receive({ type: 'live_games', games: [] });
    expect(client.watch.getState().liveGames).toEqual([]);
    expect(client.app.getState().me).toMatchObject({ id: 'p1' });
    expect(Object.keys(client.game.getState().games)).toEqual(['g1']);
  });
});
