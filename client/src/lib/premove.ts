/*
 * Premoves, as chessground makes them: where a piece may be premoved by its movement pattern
 * alone (the opponent is still to move, so any square may be free or taken by then), the
 * position with the queued premoves made, and the premove played once its turn comes, if the
 * server's `dests` then have it. Boards are read with lib/board.ts, so Chess960's arrays and
 * Three-check's FENs premove like any other.
 */
import type { Color, Dests } from '../net/protocol';
import { colorOfPiece, parseFen, playSquares, squareIndex, squareName, toFen } from './board';
import type { Destination, LocalMove } from './chess';
import { destsPromotion, moveFromDests } from './dests';

/** A premove: from, to (a pawn reaching the last rank becomes a queen). */
export interface Premove {
  from: string;
  to: string;
}

/** How many premoves may wait in the queue at once. */
export const PREMOVE_QUEUE_MAX = 8;

/**
 * Destinations for a premove of `color`'s piece on `square`: a pawn one or two squares ahead
 * and to both forward diagonals, a knight's jumps, a slider's lines to the edge through every
 * piece, the king's neighbours, and on its first rank (while its side may castle) its own rooks
 * there and the castling squares g and c. So a recapture onto a square the player's own piece
 * stands on now is possible. The premove is checked for real once it is `color`'s turn.
 */
export function premoveDestinations(fen: string, square: string, color: Color): Destination[] {
  const pos = parseFen(fen);
  const from = squareIndex(square);
  const piece = pos && from >= 0 ? pos.squares[from] : null;
  if (!pos || !piece || colorOfPiece(piece) !== color) return [];
  const file = from & 7;
  const rank = from >> 3;
  const out = new Map<string, Destination>();
  const add = (f: number, r: number): boolean => {
    if (f < 0 || f > 7 || r < 0 || r > 7) return false;
    const to = squareName(r * 8 + f);
    out.set(to, { to, capture: pos.squares[r * 8 + f] !== null });
    return true;
  };
  const white = color === 'white';
  switch (piece.toLowerCase()) {
    case 'p': {
      const ahead = white ? 1 : -1;
      add(file, rank + ahead);
      if (rank === (white ? 1 : 6)) add(file, rank + 2 * ahead);
      add(file - 1, rank + ahead);
      add(file + 1, rank + ahead);
      break;
    }
    case 'n':
      for (const [df, dr] of [[1, 2], [2, 1], [2, -1], [1, -2], [-1, -2], [-2, -1], [-2, 1], [-1, 2]]) add(file + df, rank + dr);
      break;
    case 'k': {
      for (let df = -1; df <= 1; df++) for (let dr = -1; dr <= 1; dr++) if (df || dr) add(file + df, rank + dr);
      const home = white ? 0 : 7;
      const rights = [...pos.castling].some((c) => c !== '-' && (c === c.toUpperCase()) === white);
      if (rank === home && rights) {
        const rook = white ? 'R' : 'r';
        for (let f = 0; f < 8; f++) {
          if (pos.squares[home * 8 + f] !== rook) continue;
          add(f, home);
          if (f > file && file < 6) add(6, home);
          if (f < file && file > 2) add(2, home);
        }
      }
      break;
    }
    default: {
      const kind = piece.toLowerCase();
      const lines: number[][] = [];
      if (kind !== 'b') lines.push([1, 0], [-1, 0], [0, 1], [0, -1]);
      if (kind !== 'r') lines.push([1, 1], [1, -1], [-1, 1], [-1, -1]);
      for (const [df, dr] of lines) for (let k = 1; add(file + df * k, rank + dr * k); k++);
    }
  }
  out.delete(square);
  return [...out.values()];
}

/**
 * The position as the premover sees it with its queued premoves made, by their geometry alone
 * (the opponent's replies are unknown): each piece goes to its target, taking whatever stands
 * there; a king onto its own rook, or two squares towards it, castles; a pawn on the last rank
 * becomes a queen. The side to move and the counters stay; castling and en passant are dropped.
 * Only for showing the queue and for where the next premove may go. A premove whose square is
 * empty by then ends the queue there.
 */
export function applyPremoves(fen: string, premoves: readonly Premove[]): string {
  if (premoves.length === 0) return fen;
  const start = parseFen(fen);
  if (!start) return fen;
  let pos = start;
  for (const { from, to } of premoves) {
    const f = squareIndex(from);
    const t = squareIndex(to);
    if (f < 0 || t < 0 || !pos.squares[f]) break;
    pos = playSquares(pos, f, t, undefined, true);
  }
  return toFen({ ...start, squares: pos.squares, castling: '-', enPassant: '-' });
}

/** Plays a premove now that it is the mover's turn, when the server's dests have it (a pawn
 * reaching the last rank becomes a queen); null when it is not legal any more. */
export function playPremove(fen: string, dests: Dests, premove: Premove): LocalMove | null {
  const promotion = destsPromotion(dests, fen, premove.from, premove.to) ? 'q' : undefined;
  return moveFromDests(dests, fen, premove.from, premove.to, promotion);
}
