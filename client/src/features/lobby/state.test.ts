/*
 * The lobby's reducers fed recorded messages: the seek list, the player's own challenges, and
 * direct challenges to the player.
 */
import { describe, expect, it } from 'vitest';
import type { MyGame } from '../../net/protocol';
import { dailyTurns, initialLobbyState, reduceLobby } from './state';

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

  it('keeps my_games and picks the daily games waiting for the player', () => {
    const game = (id: string, time: MyGame['time'], my_turn: boolean): MyGame => ({
      id,
      white: { id: 'p1', name: 'Ann' },
      black: { id: 'p2', name: 'Ben' },
      time,
      ply: 2,
      fen: 'rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2',
      turn: 'white',
      clock: null,
      color: 'white',
      my_turn,
      last_move: 'e7e5',
    });
    const games = [
      game('clock', { minutes: 5, increment: 0 }, true),
      game('d1', { days: 1 }, true),
      game('d3', { days: 3 }, true),
      game('theirs', { days: 2 }, false),
    ];
    const s = reduceLobby(initialLobbyState, { type: 'my_games', games }, 0);
    expect(s.myGames).toBe(games);
    expect(dailyTurns(s.myGames).map((g) => g.id)).toEqual(['d1', 'd3']);
    expect(dailyTurns([])).toEqual([]);
  });
});
