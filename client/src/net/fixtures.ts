/*
 * Messages as the server sends them (shapes copied from the integration tests' exchanges), for
 * the Vitest suites.
 */
import { pieceOn } from '../lib/board';
import { legalDestinations } from '../lib/chess';
import type { Dests, GameFull, ServerMessageOf } from '../net/protocol';

/** The dests the server sends for a standard position (chess.js stands in for its move
 * generator; a castling king also lists its rook's square, as the server's does). */
export function destsOf(fen: string): Dests {
  const out: Dests = {};
  for (const file of 'abcdefgh') {
    for (let rank = 1; rank <= 8; rank++) {
      const from = `${file}${rank}`;
      const to = legalDestinations(fen, from).map((d) => d.to);
      if (pieceOn(fen, from)?.toLowerCase() === 'k' && file === 'e') {
        const home = from[1];
        if (to.includes(`g${home}`)) to.push(`h${home}`);
        if (to.includes(`c${home}`)) to.push(`a${home}`);
      }
      if (to.length) out[from] = to;
    }
  }
  return out;
}

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
    dests: destsOf(over.fen ?? START),
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
    dests: destsOf(fen),
  };
}

export const AFTER_E4 = 'rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1';
export const AFTER_E4_E5 = 'rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2';
export const AFTER_E4_E5_NF3 = 'rnbqkbnr/pppp1ppp/8/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R b KQkq - 1 2';
