/*
 * Moves in words, for screen readers: "knight from g1 to f3, check", "bishop from c4 takes pawn
 * on f7", "pawn from e7 to e8, promotes to queen, checkmate", "white castles kingside". The
 * board announces every move it shows in an aria-live region with these words.
 *
 * The board only knows its positions and the last move's squares, so movesBetween finds the
 * moves that lead from one position to the next: one, or two when the opponent's move and the
 * player's premove come in one update; none when the next position is further away, as when
 * the history is browsed backwards or a new position is set.
 */
import { Chess, type Move } from 'chess.js';
import { PIECE_NAMES as PIECE_WORDS } from './boardInput';

/** The parts of a chess.js move the words are made of. */
export type SpokenMove = Pick<Move, 'color' | 'piece' | 'from' | 'to' | 'san' | 'flags'> &
  Partial<Pick<Move, 'captured' | 'promotion'>>;

/** A move in words (see the file's comment for examples). */
export function moveWords(move: SpokenMove): string {
  const side = move.color === 'w' ? 'white' : 'black';
  let words: string;
  if (move.flags.includes('k')) words = `${side} castles kingside`;
  else if (move.flags.includes('q')) words = `${side} castles queenside`;
  else {
    const piece = PIECE_WORDS[move.piece] ?? 'piece';
    if (move.flags.includes('e')) words = `${piece} from ${move.from} takes pawn on ${move.to}, en passant`;
    else if (move.captured) words = `${piece} from ${move.from} takes ${PIECE_WORDS[move.captured] ?? 'piece'} on ${move.to}`;
    else words = `${piece} from ${move.from} to ${move.to}`;
    if (move.promotion) words += `, promotes to ${PIECE_WORDS[move.promotion] ?? 'piece'}`;
  }
  if (move.san.endsWith('#')) words += ', checkmate';
  else if (move.san.endsWith('+')) words += ', check';
  return words;
}

/** The placement and the side to move of a FEN (what a move changes for sure). */
function essentials(fen: string): string {
  return fen.split(' ').slice(0, 2).join(' ');
}

/**
 * The legal move from `before` whose squares are `last` and that leads to `after`, or null
 * (no such move, or a FEN chess.js cannot read).
 */
export function moveBetween(before: string, after: string, last: { from: string; to: string } | null): Move | null {
  if (!last || before === after) return null;
  let chess: Chess;
  try {
    chess = new Chess(before);
  } catch {
    return null;
  }
  const target = essentials(after);
  for (const m of chess.moves({ verbose: true })) {
    if (m.from !== last.from || m.to !== last.to) continue;
    if (essentials(m.after) === target) return m;
  }
  return null;
}

/**
 * The moves from `before` to `after` whose last one has the squares of `last`: that move
 * alone, or another move and then it; [] when there are none such.
 */
export function movesBetween(before: string, after: string, last: { from: string; to: string } | null): Move[] {
  const one = moveBetween(before, after, last);
  if (one) return [one];
  if (!last || before === after) return [];
  let chess: Chess;
  try {
    chess = new Chess(before);
  } catch {
    return [];
  }
  for (const first of chess.moves({ verbose: true })) {
    const second = moveBetween(first.after, after, last);
    if (second) return [first, second];
  }
  return [];
}

/** The words for the moves between two positions (see movesBetween), or ''. */
export function movesWords(before: string, after: string, last: { from: string; to: string } | null): string {
  return movesBetween(before, after, last).map(moveWords).join('; ');
}
