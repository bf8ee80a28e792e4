/*
 * Messages as the server sends them (shapes copied from the integration tests' exchanges), for
 * the Vitest suites.
 */
import type { GameFull, ServerMessageOf } from '../net/protocol';

export const START = 'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1';

export function fullGame(over: Partial<GameFull> = {}): GameFull {
  return {
    id: 'g1',
    v: 1,
    white: { id: 'p1', name: 'Ann', connected: true },
    black: { id: 'p2', name: 'Ben', connected: true },
    time: { minutes: 3, increment: 2 },
    status: 'playing',
    initial_fen: START,
    moves: [],
    san: [],
    ply: 0,
    fen: START,
    turn: 'white',
    clock: { white: 180000, black: 180000 },
    clock_running: null,
    offers: { draw: null, takeback: null, rematch: null },
    rematch: null,
    chat: [],
    ...over,
  };
}

export function moveEvent(
  v: number,
  ply: number,
  uci: string,
  san: string,
  fen: string,
  clock = { white: 180000, black: 180000 },
): ServerMessageOf<'move'> {
  return {
    type: 'move',
    game: 'g1',
    v,
    ply,
    uci,
    san,
    fen,
    turn: ply % 2 === 1 ? 'black' : 'white',
    clock,
  };
}

export const AFTER_E4 = 'rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1';
export const AFTER_E4_E5 = 'rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2';
export const AFTER_E4_E5_NF3 = 'rnbqkbnr/pppp1ppp/8/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R b KQkq - 1 2';
