/*
 * A board read from any FEN the server sends, which chess.js cannot all read: Chess960's arrays
 * with X-FEN or Shredder-FEN castling fields (HAha, or KQkq with the king off e1), and
 * Three-check's "+W+B" ending. Pieces by square, the side to move, attacks (is a king in
 * check?), and a move played by its squares alone, castling included (the king onto its own
 * rook, or two squares towards it), for what the live board shows before the server answers
 * and for replaying a game's history. The server judges legality (its `dests`); nothing here
 * generates legal moves.
 */
import type { Color } from '../net/protocol';

/** A position: squares[0] is a1, squares[63] h8, each a FEN piece letter or null. */
export interface BoardPosition {
  squares: (string | null)[];
  turn: Color;
  castling: string;
  enPassant: string;
  halfmove: number;
  fullmove: number;
  /** Three-check: the checks each side has given (the FEN's "+W+B"); null in other variants. */
  checks: { white: number; black: number } | null;
}

export const FILES = 'abcdefgh';

/** 'e4' -> 28, or -1. */
export function squareIndex(square: string): number {
  const file = FILES.indexOf(square[0] ?? '');
  const rank = Number(square[1]) - 1;
  return square.length === 2 && file >= 0 && rank >= 0 && rank < 8 ? rank * 8 + file : -1;
}

/** 28 -> 'e4'. */
export function squareName(index: number): string {
  return `${FILES[index & 7]}${(index >> 3) + 1}`;
}

export function colorOfPiece(piece: string): Color {
  return piece === piece.toUpperCase() ? 'white' : 'black';
}

/** Reads a FEN's fields; null when its board part is not eight ranks of eight squares. */
export function parseFen(fen: string): BoardPosition | null {
  const fields = fen.trim().split(/\s+/);
  const rows = (fields[0] ?? '').split('/');
  if (rows.length !== 8) return null;
  const squares: (string | null)[] = new Array(64).fill(null);
  for (let r = 0; r < 8; r++) {
    let file = 0;
    for (const ch of rows[r]) {
      if (/[1-8]/.test(ch)) file += Number(ch);
      else if (/[pnbrqkPNBRQK]/.test(ch) && file < 8) squares[(7 - r) * 8 + file++] = ch;
      else return null;
    }
    if (file !== 8) return null;
  }
  const last = fields[fields.length - 1] ?? '';
  const checks = /^\+\d\+\d$/.test(last) ? { white: Number(last[1]), black: Number(last[3]) } : null;
  return {
    squares,
    turn: fields[1] === 'b' ? 'black' : 'white',
    castling: fields[2] ?? '-',
    enPassant: fields[3] ?? '-',
    halfmove: Number(fields[4]) || 0,
    fullmove: Number(fields[5]) || 1,
    checks,
  };
}

/** A FEN's board field from the piece letter on each square (by name, "e4"), or none. */
export function placementFen(pieceOn: (square: string) => string | null | undefined): string {
  const rows: string[] = [];
  for (let r = 8; r >= 1; r--) {
    let row = '';
    let empty = 0;
    for (const f of FILES) {
      const p = pieceOn(`${f}${r}`);
      if (!p) {
        empty++;
        continue;
      }
      if (empty) row += String(empty);
      empty = 0;
      row += p;
    }
    rows.push(empty ? row + String(empty) : row);
  }
  return rows.join('/');
}

/** The position as FEN (Three-check's checks at the end, as the server writes them). */
export function toFen(pos: BoardPosition): string {
  const board = placementFen((square) => pos.squares[squareIndex(square)]);
  const fen = [board, pos.turn[0], pos.castling || '-', pos.enPassant, pos.halfmove, pos.fullmove].join(' ');
  return pos.checks ? `${fen} +${pos.checks.white}+${pos.checks.black}` : fen;
}

/** The piece on a square of a FEN's board, or null (also for a FEN that does not read). */
export function pieceOn(fen: string, square: string): string | null {
  return parseFen(fen)?.squares[squareIndex(square)] ?? null;
}

const KNIGHT = [
  [1, 2],
  [2, 1],
  [2, -1],
  [1, -2],
  [-1, -2],
  [-2, -1],
  [-2, 1],
  [-1, 2],
];
const KING = [
  [1, 0],
  [1, 1],
  [0, 1],
  [-1, 1],
  [-1, 0],
  [-1, -1],
  [0, -1],
  [1, -1],
];

/** Whether `by`'s pieces attack the square (index). */
export function attacked(pos: BoardPosition, target: number, by: Color): boolean {
  const tf = target & 7;
  const tr = target >> 3;
  const own = (p: string | null, letter: string) =>
    p !== null && p.toLowerCase() === letter && colorOfPiece(p) === by;
  const at = (f: number, r: number) => (f >= 0 && f < 8 && r >= 0 && r < 8 ? pos.squares[r * 8 + f] : undefined);
  const pawnRank = by === 'white' ? tr - 1 : tr + 1;
  if (own(at(tf - 1, pawnRank) ?? null, 'p') || own(at(tf + 1, pawnRank) ?? null, 'p')) return true;
  for (const [df, dr] of KNIGHT) if (own(at(tf + df, tr + dr) ?? null, 'n')) return true;
  for (const [df, dr] of KING) {
    if (own(at(tf + df, tr + dr) ?? null, 'k')) return true;
    const slider = df !== 0 && dr !== 0 ? 'b' : 'r';
    for (let k = 1; ; k++) {
      const p = at(tf + df * k, tr + dr * k);
      if (p === undefined) break;
      if (p === null) continue;
      if (own(p, slider) || own(p, 'q')) return true;
      break;
    }
  }
  return false;
}

/** The square of `color`'s king, or -1. */
function kingOf(pos: BoardPosition, color: Color): number {
  const king = color === 'white' ? 'K' : 'k';
  return pos.squares.indexOf(king);
}

/** The square of the side to move's king when it is in check, or null. */
export function checkedKing(fen: string): string | null {
  const pos = parseFen(fen);
  if (!pos) return null;
  const king = kingOf(pos, pos.turn);
  return king >= 0 && attacked(pos, king, pos.turn === 'white' ? 'black' : 'white') ? squareName(king) : null;
}

/**
 * Whether from -> to is castling: the king onto one of its own rooks on its first rank, or the
 * king two or more files along its first rank with an own rook beyond (the king's own
 * destination, g or c). Returns the rook's square index, or -1.
 */
export function castlingRook(pos: BoardPosition, from: number, to: number): number {
  const king = pos.squares[from];
  if (!king || king.toLowerCase() !== 'k') return -1;
  const color = colorOfPiece(king);
  const home = color === 'white' ? 0 : 7;
  if (from >> 3 !== home || to >> 3 !== home) return -1;
  const rook = color === 'white' ? 'R' : 'r';
  if (pos.squares[to] === rook) return to;
  const ff = from & 7;
  const tf = to & 7;
  if (Math.abs(tf - ff) < 2 || (tf !== 6 && tf !== 2)) return -1;
  // The outermost own rook on that side (the one the castling right is for).
  const step = tf > ff ? 1 : -1;
  let found = -1;
  for (let f = ff + step; f >= 0 && f < 8; f += step) if (pos.squares[home * 8 + f] === rook) found = home * 8 + f;
  return found;
}

/** A move played by its squares: captures, en passant, promotion (a queen unless given),
 * castling as castlingRook() reads it; the counters, the side to move, the castling rights of
 * a king or rook that moved, Three-check's checks. `premove`: a pawn's diagonal onto an empty
 * square takes nothing (a premove's capture to come, not en passant). Returns a new position. */
export function playSquares(pos: BoardPosition, from: number, to: number, promotion?: string, premove = false): BoardPosition {
  const squares = [...pos.squares];
  const piece = squares[from];
  if (!piece) return pos;
  const color = colorOfPiece(piece);
  const kind = piece.toLowerCase();
  const home = color === 'white' ? 0 : 7;
  let capture = squares[to] !== null && colorOfPiece(squares[to]!) !== color;
  let enPassant = '-';
  const rookFrom = castlingRook(pos, from, to);
  let castling = pos.castling;
  const dropRights = (test: (c: string) => boolean) => {
    castling = [...castling].filter((c) => c === '-' || !test(c)).join('') || '-';
  };
  const ownRight = (c: string) => (color === 'white' ? c === c.toUpperCase() : c === c.toLowerCase());
  if (rookFrom >= 0) {
    const kingSide = (rookFrom & 7) > (from & 7);
    const rook = squares[rookFrom];
    squares[from] = null;
    squares[rookFrom] = null;
    squares[home * 8 + (kingSide ? 6 : 2)] = piece;
    squares[home * 8 + (kingSide ? 5 : 3)] = rook;
    capture = false;
    dropRights(ownRight);
  } else {
    squares[from] = null;
    let placed = piece;
    if (kind === 'p') {
      const lastRank = color === 'white' ? 7 : 0;
      if (to >> 3 === lastRank) placed = color === 'white' ? (promotion ?? 'q').toUpperCase() : (promotion ?? 'q').toLowerCase();
      if (!premove && (from & 7) !== (to & 7) && squares[to] === null) {
        squares[to + (color === 'white' ? -8 : 8)] = null; // en passant
        capture = true;
      }
      // En passant written only when an enemy pawn stands beside (as the server writes it).
      const enemyPawn = color === 'white' ? 'p' : 'P';
      const beside = [(to & 7) > 0 ? to - 1 : -1, (to & 7) < 7 ? to + 1 : -1];
      if (Math.abs(to - from) === 16 && beside.some((b) => b >= 0 && squares[b] === enemyPawn))
        enPassant = squareName((from + to) / 2);
    }
    squares[to] = placed;
    if (kind === 'k') dropRights(ownRight);
    // A rook leaving its corner or taken there: that side's right by its file letter or K/Q.
    for (const sq of [from, to]) {
      const rank = sq >> 3;
      if (rank !== 0 && rank !== 7) continue;
      const white = rank === 0;
      const fileLetter = FILES[sq & 7];
      dropRights((c) => {
        if ((c === c.toUpperCase()) !== white) return false;
        const l = c.toLowerCase();
        return l === fileLetter || (l === 'k' && (sq & 7) === 7) || (l === 'q' && (sq & 7) === 0);
      });
    }
  }
  const next: BoardPosition = {
    squares,
    turn: color === 'white' ? 'black' : 'white',
    castling,
    enPassant,
    halfmove: kind === 'p' || capture ? 0 : pos.halfmove + 1,
    fullmove: color === 'black' ? pos.fullmove + 1 : pos.fullmove,
    checks: pos.checks,
  };
  if (pos.checks && givesCheck(next)) next.checks = { ...pos.checks, [color]: pos.checks[color] + 1 };
  return next;
}

/** Whether the side to move is in check. */
export function givesCheck(pos: BoardPosition): boolean {
  const king = kingOf(pos, pos.turn);
  return king >= 0 && attacked(pos, king, pos.turn === 'white' ? 'black' : 'white');
}

/** A UCI move (e2e4, e7e8q, e1h1 or e1g1 castling) played on a FEN; null when the FEN does not
 * read or nothing stands on the origin. */
export function playUciOnFen(fen: string, uci: string): string | null {
  const pos = parseFen(fen);
  const from = squareIndex(uci.slice(0, 2));
  const to = squareIndex(uci.slice(2, 4));
  if (!pos || from < 0 || to < 0 || !pos.squares[from]) return null;
  return toFen(playSquares(pos, from, to, uci[4]));
}
