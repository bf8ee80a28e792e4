import { describe, expect, it } from 'vitest';
import { AFTER_E4, fullGame, moveEvent } from './fixtures';
import { initialState, reduceMessage, type AppState } from './state';

const seek = (id: string) => ({
  id,
  player: { id: 'p2', name: 'Ben' },
  time: { minutes: 5, increment: 0 },
  color: 'random' as const,
  created: 0,
});

describe('reduceMessage', () => {
  it('takes the player and the games in progress from the welcome', () => {
    const s = reduceMessage(
      initialState,
      { type: 'welcome', protocol: 1, player: { id: 'p1', name: 'Ann' }, token: 't', games: [fullGame()] },
      0,
    );
    expect(s.me).toEqual({ id: 'p1', name: 'Ann', token: 't' });
    expect(Object.keys(s.games)).toEqual(['g1']);
  });

  it('forgets games of the player that ended while the connection was down', () => {
    const welcome = (games: ReturnType<typeof fullGame>[]) =>
      ({ type: 'welcome', protocol: 1, player: { id: 'p1', name: 'Ann' }, token: 't', games }) as const;
    let s = reduceMessage(initialState, welcome([fullGame(), fullGame({ id: 'g2' })]), 0);
    s = reduceMessage(s, { type: 'game', game: fullGame({ id: 'w1', white: { id: 'x', name: 'X', connected: true } }) }, 0);
    s = reduceMessage(s, welcome([fullGame()]), 0);
    expect(Object.keys(s.games).sort()).toEqual(['g1', 'w1']);
  });

  it('keeps the seek list live', () => {
    let s = reduceMessage(initialState, { type: 'seeks', seeks: [seek('a')] }, 0);
    expect(s.seeksLoaded).toBe(true);
    s = reduceMessage(s, { type: 'seek_added', seek: seek('b') }, 0);
    s = reduceMessage(s, { type: 'seek_added', seek: seek('b') }, 0); // the reply and the push
    expect(s.seeks.map((x) => x.id)).toEqual(['a', 'b']);
    s = reduceMessage(s, { type: 'seek_removed', seek: 'a' }, 0);
    expect(s.seeks.map((x) => x.id)).toEqual(['b']);
  });

  it('tracks the player’s own challenges', () => {
    let s = reduceMessage(initialState, { type: 'challenge_created', challenge: { ...seek('c'), url: '/challenge/c' } }, 0);
    expect(Object.keys(s.challenges)).toEqual(['c']);
    s = reduceMessage(s, { type: 'challenge_removed', challenge: 'c' }, 0);
    expect(s.challenges).toEqual({});
  });

  it('keeps direct challenges to the player until they are answered or withdrawn', () => {
    const bot = { id: 'b1', name: 'RandBot', bot: true };
    const incoming = { ...seek('d'), player: bot, to: { id: 'p1', name: 'Ann' }, rated: false };
    let s = reduceMessage(initialState, { type: 'challenge_received', challenge: incoming }, 0);
    expect(s.incoming.d.player.bot).toBe(true);
    s = reduceMessage(s, { type: 'challenge_received', challenge: { ...incoming, id: 'e' } }, 0);
    s = reduceMessage(s, { type: 'challenge_removed', challenge: 'd', reason: 'cancelled' }, 0);
    expect(Object.keys(s.incoming)).toEqual(['e']);
    s = reduceMessage(s, { type: 'challenge_removed', challenge: 'e', reason: 'declined', decline_reason: 'later' }, 0);
    expect(s.incoming).toEqual({});
    expect(reduceMessage(s, { type: 'challenge_removed', challenge: 'zz' }, 0)).toBe(s);
  });

  it('routes game events to their game and ignores unknown games', () => {
    let s = reduceMessage(initialState, { type: 'game', game: fullGame() }, 0);
    s = reduceMessage(s, moveEvent(2, 1, 'e2e4', 'e4', AFTER_E4), 0);
    expect(s.games.g1.san).toEqual(['e4']);
    const same = reduceMessage(s, { ...moveEvent(9, 1, 'e2e4', 'e4', AFTER_E4), game: 'nope' }, 0);
    expect(same).toBe(s);
  });

  it('settles a pending move when the server confirms it, or when a full state moves past it', () => {
    const withGame = reduceMessage(initialState, { type: 'game', game: fullGame() }, 0);
    const pending: AppState = {
      ...withGame,
      pending: { g1: { ply: 1, uci: 'e2e4', san: 'e4', fen: AFTER_E4, from: 'e2', to: 'e4' } },
    };
    const confirmed = reduceMessage(pending, moveEvent(2, 1, 'e2e4', 'e4', AFTER_E4), 0);
    expect(confirmed.pending).toEqual({});
    // A full state with the same ply (the move still in flight) keeps it.
    const refreshed = reduceMessage(pending, { type: 'game', game: fullGame({ v: 3 }) }, 0);
    expect(refreshed.pending.g1).toBeDefined();
    const ended = reduceMessage(pending, { type: 'game', game: fullGame({ status: 'ended', result: '*', reason: 'aborted' }) }, 0);
    expect(ended.pending).toEqual({});
  });
});

describe('accounts and the archive', () => {
  const archived = {
    id: 'old1',
    status: 'ended',
    white: { id: 'p1', name: 'Ann', rating: 1500, rating_diff: 8 },
    black: { id: 'p2', name: 'Ben', rating: 1520, rating_diff: -8 },
    time: { minutes: 5, increment: 0 },
    rated: true,
    category: 'blitz' as const,
    result: '1-0' as const,
    reason: 'resignation' as const,
    winner: 'white' as const,
    ply: 2,
    created_at: 1,
    ended_at: 2,
    initial_fen: 'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1',
    moves: ['e2e4', 'e7e5'],
    san: ['e4', 'e5'],
    clocks: [300000, 299000],
  };

  it('takes the new name when this guest registers', () => {
    let s = reduceMessage(initialState, { type: 'welcome', protocol: 1, player: { id: 'p1', name: 'Guest1' }, token: 't', games: [] }, 0);
    s = reduceMessage(s, { type: 'registered', player: { id: 'p1', name: 'Ann', registered: true } }, 0);
    expect(s.me).toMatchObject({ id: 'p1', name: 'Ann', registered: true, token: 't' });
  });

  it('shows an archived game read-only, never over a live copy', () => {
    const s = reduceMessage(initialState, { type: 'game_record', game: archived }, 0);
    expect(s.games.old1).toMatchObject({
      archived: true,
      status: 'ended',
      ply: 2,
      san: ['e4', 'e5'],
      clock: null,
      outcome: { result: '1-0', reason: 'resignation', winner: 'white' },
      white: { name: 'Ann', rating: 1500, ratingDiff: 8 },
    });
    expect(s.games.old1.fens).toHaveLength(3);
    const live = reduceMessage(initialState, { type: 'game', game: fullGame({ id: 'old1' }) }, 0);
    expect(reduceMessage(live, { type: 'game_record', game: archived }, 0)).toBe(live);
  });
});

describe('the own profile', () => {
  it('tells whether this player has an account', () => {
    let s = reduceMessage(initialState, { type: 'welcome', protocol: 1, player: { id: 'p1', name: 'ann' }, token: 't', games: [] }, 0);
    const profile = { id: 'p1', name: 'ann', registered: true, bot: false, online: true, created_at: 0, username: 'ann', ratings: {} };
    s = reduceMessage(s, { type: 'player', player: profile }, 0);
    expect(s.me).toMatchObject({ registered: true });
    expect(reduceMessage(s, { type: 'player', player: { ...profile, id: 'other', registered: false } }, 0)).toBe(s);
  });
});
