/*
 * Moves on the live game's board from the server's `dests` (docs/protocol.md, "Game state"), as
 * lichess's round does: where the selected piece may go, whether a drop needs the promotion
 * chooser, and the move a drop makes, with the position after it (lib/board.ts) to show until
 * the server's move event comes. Works for every variant (Chess960's castling, Three-check's
 * FENs), which chess.js cannot play; the server stays the judge.
 *
 * Castling: `dests` lists the king's rook square and its own destination (g1, c1); either drop
 * is sent as the king's origin and the square dropped on (e1h1, e1g1), which the server reads as
 * the castling (unless another move reads the same, then that move is what the player meant).
 */
import type { Dests } from '../net/protocol';
import {
  castlingRook,
  colorOfPiece,
  givesCheck,
  parseFen,
  playSquares,
  squareIndex,
  toFen,
  type BoardPosition,
} from './board';
import type { Destination, LocalMove, PromotionPiece } from './chess';

/** Where the piece on `square` may go, marking captures (not the own rook of a castling). */
export function destsFor(dests: Dests, fen: string, square: string): Destination[] {
  const targets = dests[square];
  const pos = targets ? parseFen(fen) : null;
  if (!targets || !pos) return [];
  const from = squareIndex(square);
  const mover = pos.squares[from];
  return targets.map((to) => {
    const i = squareIndex(to);
    const there = pos.squares[i];
    const enPassant = mover?.toLowerCase() === 'p' && (from & 7) !== (i & 7);
    return { to, capture: enPassant || (there !== null && mover !== null && colorOfPiece(there) !== colorOfPiece(mover)) };
  });
}

/** Whether from -> to is a pawn reaching the last rank (the player chooses a piece). */
export function destsPromotion(dests: Dests, fen: string, from: string, to: string): boolean {
  if (!dests[from]?.includes(to)) return false;
  const piece = parseFen(fen)?.squares[squareIndex(from)];
  return (piece === 'P' && to[1] === '8') || (piece === 'p' && to[1] === '1');
}

/** The UCI a drop sends: the origin, the square dropped on, the promotion piece. */
export function dropUci(from: string, to: string, promotion?: PromotionPiece): string {
  return `${from}${to}${promotion ?? ''}`;
}

/** SAN enough to show and to sound until the server's own comes: no disambiguation. */
function roughSan(before: BoardPosition, after: BoardPosition, from: number, to: number, capture: boolean, promotion?: string): string {
  const piece = before.squares[from] ?? '';
  const rook = castlingRook(before, from, to);
  const check = givesCheck(after) ? '+' : '';
  if (rook >= 0) return `${(rook & 7) > (from & 7) ? 'O-O' : 'O-O-O'}${check}`;
  const toName = `${'abcdefgh'[to & 7]}${(to >> 3) + 1}`;
  if (piece.toLowerCase() === 'p') {
    const promo = promotion ? `=${promotion.toUpperCase()}` : '';
    return `${capture ? `${'abcdefgh'[from & 7]}x` : ''}${toName}${promo}${check}`;
  }
  return `${piece.toUpperCase()}${capture ? 'x' : ''}${toName}${check}`;
}

/**
 * The move from -> to (with the piece a pawn becomes on the last rank) when `dests` has it, as
 * the board sends and shows it; null when it is not among the dests (the drop snaps back) or
 * a promotion lacks its piece.
 */
export function moveFromDests(
  dests: Dests,
  fen: string,
  from: string,
  to: string,
  promotion?: PromotionPiece,
): LocalMove | null {
  if (!dests[from]?.includes(to)) return null;
  const pos = parseFen(fen);
  if (!pos) return null;
  const promotes = destsPromotion(dests, fen, from, to);
  if (promotes !== (promotion !== undefined)) return null;
  const f = squareIndex(from);
  const t = squareIndex(to);
  const capture = destsFor(dests, fen, from).some((d) => d.to === to && d.capture);
  const after = playSquares(pos, f, t, promotion);
  return {
    uci: dropUci(from, to, promotion),
    san: roughSan(pos, after, f, t, capture, promotion),
    fen: toFen(after),
    from,
    to,
    capture,
    check: givesCheck(after),
  };
}
