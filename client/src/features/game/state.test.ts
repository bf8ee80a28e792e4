/*
 * The games reducers fed recorded message sequences: the welcome's games, events routed to
 * their game, pending moves, archived games.
 */
import { describe, expect, it } from 'vitest';
import { AFTER_E4, fullGame, moveEvent } from '../../net/fixtures';
import { initialGamesState, reduceGames, type GamesState } from './state';

describe('reduceGames', () => {
  it('takes the games in progress from the welcome', () => {
    const s = reduceGames(
      initialGamesState,
      { type: 'welcome', protocol: 1, player: { id: 'p1', name: 'Ann' }, token: 't', games: [fullGame()] },
      0,
    );
    expect(Object.keys(s.games)).toEqual(['g1']);
  });

  it('forgets games of the player that ended while the connection was down', () => {
    const welcome = (games: ReturnType<typeof fullGame>[]) =>
      ({ type: 'welcome', protocol: 1, player: { id: 'p1', name: 'Ann' }, token: 't', games }) as const;
    let s = reduceGames(initialGamesState, welcome([fullGame(), fullGame({ id: 'g2' })]), 0);
    s = reduceGames(s, { type: 'game', game: fullGame({ id: 'w1', white: { id: 'x', name: 'X', connected: true } }) }, 0);
    s = reduceGames(s, welcome([fullGame()]), 0);
    expect(Object.keys(s.games).sort()).toEqual(['g1', 'w1']);
  });

  it('keeps the number of spectators, also across a full state', () => {
    let s = reduceGames(initialGamesState, { type: 'game', game: fullGame() }, 0);
    s = reduceGames(s, { type: 'spectators', game: 'g1', count: 3 }, 0);
    expect(s.games.g1.spectators).toBe(3);
    s = reduceGames(s, { type: 'game', game: fullGame({ v: 5 }) }, 0);
    expect(s.games.g1.spectators).toBe(3);
    expect(reduceGames(s, { type: 'spectators', game: 'nope', count: 1 }, 0)).toBe(s);
  });

  it('routes game events to their game and ignores unknown games', () => {
    let s = reduceGames(initialGamesState, { type: 'game', game: fullGame() }, 0);
    s = reduceGames(s, moveEvent(2, 1, 'e2e4', 'e4', AFTER_E4), 0);
    expect(s.games.g1.san).toEqual(['e4']);
    const same = reduceGames(s, { ...moveEvent(9, 1, 'e2e4', 'e4', AFTER_E4), game: 'nope' }, 0);
    expect(same).toBe(s);
  });

  it('settles a pending move when the server confirms it, or when a full state moves past it', () => {
    const withGame = reduceGames(initialGamesState, { type: 'game', game: fullGame() }, 0);
    const pending: GamesState = {
      ...withGame,
      pending: { g1: { ply: 1, uci: 'e2e4', san: 'e4', fen: AFTER_E4, from: 'e2', to: 'e4' } },
    };
    const confirmed = reduceGames(pending, moveEvent(2, 1, 'e2e4', 'e4', AFTER_E4), 0);
    expect(confirmed.pending).toEqual({});
    // A full state with the same ply (the move still in flight) keeps it.
    const refreshed = reduceGames(pending, { type: 'game', game: fullGame({ v: 3 }) }, 0);
    expect(refreshed.pending.g1).toBeDefined();
    const ended = reduceGames(pending, { type: 'game', game: fullGame({ status: 'ended', result: '*', reason: 'aborted' }) }, 0);
    expect(ended.pending).toEqual({});
  });
});

describe('ratings in play', () => {
  it('shows the ratings from the state, and their changes at a rated game’s end', () => {
    const game = fullGame({
      rated: true,
      white: { id: 'p1', name: 'Ann', connected: true, rating: 1500, provisional: true },
      black: { id: 'p2', name: 'Ben', connected: true, rating: 1634 },
    });
    let s = reduceGames(initialGamesState, { type: 'game', game }, 0);
    expect(s.games.g1.white).toMatchObject({ rating: 1500, provisional: true });
    expect(s.games.g1.black.ratingDiff).toBeUndefined();
    s = reduceGames(
      s,
      {
        type: 'game_end',
        game: 'g1',
        v: 2,
        result: '0-1',
        reason: 'resignation',
        winner: 'black',
        clock: null,
        ratings: {
          white: { before: 1500, after: 1338, diff: -162 },
          black: { before: 1634, after: 1650, diff: 16 },
        },
      },
      0,
    );
    expect(s.games.g1.white).toMatchObject({ rating: 1500, ratingDiff: -162 });
    expect(s.games.g1.black).toMatchObject({ rating: 1634, ratingDiff: 16 });
  });
});

describe('the archive', () => {
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

  it('shows an archived game read-only, never over a live copy', () => {
    const s = reduceGames(initialGamesState, { type: 'game_record', game: archived }, 0);
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
    const live = reduceGames(initialGamesState, { type: 'game', game: fullGame({ id: 'old1' }) }, 0);
    expect(reduceGames(live, { type: 'game_record', game: archived }, 0)).toBe(live);
  });
});
