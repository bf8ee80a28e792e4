/*
 * The lobby's reducers fed recorded messages: the seek list, the player's own challenges, and
 * direct challenges to the player.
 */
import { describe, expect, it } from 'vitest';
import { initialLobbyState, reduceLobby } from './state';

const seek = (id: string) => ({
  id,
  player: { id: 'p2', name: 'Ben' },
  time: { minutes: 5, increment: 0 },
  color: 'random' as const,
  created: 0,
});

describe('reduceLobby', () => {
  it('follows the quick pairing pool this player waits in', () => {
    const time = { minutes: 3, increment: 2 };
    let s = reduceLobby(initialLobbyState, { type: 'pool_joined', time, rated: true, waiting: 3 }, 0);
    expect(s.pool).toEqual({ time, rated: true, waiting: 3 });
    s = reduceLobby(s, { type: 'pool_left' }, 0);
    expect(s.pool).toBeNull();
  });

  it('keeps the seek list live', () => {
    let s = reduceLobby(initialLobbyState, { type: 'seeks', seeks: [seek('a')] }, 0);
    expect(s.seeksLoaded).toBe(true);
    s = reduceLobby(s, { type: 'seek_added', seek: seek('b') }, 0);
    s = reduceLobby(s, { type: 'seek_added', seek: seek('b') }, 0); // the reply and the push
    expect(s.seeks.map((x) => x.id)).toEqual(['a', 'b']);
    s = reduceLobby(s, { type: 'seek_removed', seek: 'a' }, 0);
    expect(s.seeks.map((x) => x.id)).toEqual(['b']);
  });

  it('tracks the player’s own challenges', () => {
    let s = reduceLobby(initialLobbyState, { type: 'challenge_created', challenge: { ...seek('c'), url: '/challenge/c' } }, 0);
    expect(Object.keys(s.challenges)).toEqual(['c']);
    s = reduceLobby(s, { type: 'challenge_removed', challenge: 'c' }, 0);
    expect(s.challenges).toEqual({});
  });

  it('keeps direct challenges to the player until they are answered or withdrawn', () => {
    const bot = { id: 'b1', name: 'RandBot', bot: true };
    const incoming = { ...seek('d'), player: bot, to: { id: 'p1', name: 'Ann' }, rated: false };
    let s = reduceLobby(initialLobbyState, { type: 'challenge_received', challenge: incoming }, 0);
    expect(s.incoming.d.player.bot).toBe(true);
    s = reduceLobby(s, { type: 'challenge_received', challenge: { ...incoming, id: 'e' } }, 0);
    s = reduceLobby(s, { type: 'challenge_removed', challenge: 'd', reason: 'cancelled' }, 0);
    expect(Object.keys(s.incoming)).toEqual(['e']);
    s = reduceLobby(s, { type: 'challenge_removed', challenge: 'e', reason: 'declined', decline_reason: 'later' }, 0);
    expect(s.incoming).toEqual({});
    expect(reduceLobby(s, { type: 'challenge_removed', challenge: 'zz' }, 0)).toBe(s);
  });
});
