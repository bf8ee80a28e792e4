/*
 * The board editor's position, as pure functions: the pieces by square, the side to move, the
 * castling rights asked for and an optional en-passant square. Any arrangement may be edited
 * (a position without kings too); its FEN carries only the castling rights the kings and rooks
 * still allow and an en-passant square only where a pawn can just have made its double step.
 * editorProblem says why a position cannot be analysed (no king, two kings, a pawn on the first
 * or last rank, the side not to move in check), or null; chess.js's validateFen has the last
 * word on the rest.
 */
import { Chess, validateFen } from 'chess.js';
import { FILES, placementFen } from '../../lib/board';
import { START_FEN } from '../../lib/chess';

/** A piece as FEN writes it: upper case White's, lower case Black's. */
export type EditorPiece = 'K' | 'Q' | 'R' | 'B' | 'N' | 'P' | 'k' | 'q' | 'r' | 'b' | 'n' | 'p';
export type CastlingRight = 'K' | 'Q' | 'k' | 'q';

export interface EditorPosition {
  board: Readonly<Partial<Record<string, EditorPiece>>>;
  turn: 'w' | 'b';
  /** The rights asked for (each kept only while its king and rook are at home: editorFen). */
  castling: readonly CastlingRight[];
  enPassant: string | null;
}

export const EDITOR_PIECES: readonly EditorPiece[] = ['K', 'Q', 'R', 'B', 'N', 'P', 'k', 'q', 'r', 'b', 'n', 'p'];
export const CASTLING_RIGHTS: readonly CastlingRight[] = ['K', 'Q', 'k', 'q'];

/** A position from a FEN: its placement must be 8 ranks of 8 squares; the other fields may be left out. */
export function editorFromFen(fen: string): EditorPosition | null {
  const [placement, turn = 'w', castling = '-', ep = '-'] = fen.trim().split(/\s+/);
  const rows = placement?.split('/') ?? [];
  if (rows.length !== 8) return null;
  const board: Partial<Record<string, EditorPiece>> = {};
  for (let r = 0; r < 8; r++) {
    let f = 0;
    for (const ch of rows[r]) {
      if (/[1-8]/.test(ch)) f += Number(ch);
      else if ((EDITOR_PIECES as readonly string[]).includes(ch) && f < 8) board[`${FILES[f++]}${8 - r}`] = ch as EditorPiece;
      else return null;
    }
    if (f !== 8) return null;
  }
  if (turn !== 'w' && turn !== 'b') return null;
  if (!/^(-|K?Q?k?q?)$/.test(castling)) return null;
  return {
    board,
    turn,
    castling: CASTLING_RIGHTS.filter((c) => castling.includes(c)),
    enPassant: /^[a-h][36]$/.test(ep) ? ep : null,
  };
}

export const EDITOR_START = editorFromFen(START_FEN) as EditorPosition;

/** An empty board, White to move. */
export function editorClear(): EditorPosition {
  return { board: {}, turn: 'w', castling: [], enPassant: null };
}

/** Puts a piece on a square (null: empties it). */
export function editorPut(pos: EditorPosition, square: string, piece: EditorPiece | null): EditorPosition {
  const board = { ...pos.board };
  if (piece) board[square] = piece;
  else delete board[square];
  return { ...pos, board };
}

/** Whether the king and rook of a castling right stand on their home squares. */
export function castlingPossible(pos: EditorPosition, right: CastlingRight): boolean {
  const white = right === 'K' || right === 'Q';
  const rank = white ? '1' : '8';
  const rookFile = right.toUpperCase() === 'K' ? 'h' : 'a';
  return pos.board[`e${rank}`] === (white ? 'K' : 'k') && pos.board[`${rookFile}${rank}`] === (white ? 'R' : 'r');
}

/**
 * The squares a pawn of the side not to move can have just passed with a double step: the
 * square behind it is empty, and so is the one it came from.
 */
export function enPassantSquares(pos: EditorPosition): string[] {
  const [target, pawnRank, fromRank, pawn] = pos.turn === 'w' ? ['6', '5', '7', 'p'] : ['3', '4', '2', 'P'];
  return [...FILES]
    .filter((f) => pos.board[`${f}${pawnRank}`] === pawn && !pos.board[`${f}${target}`] && !pos.board[`${f}${fromRank}`])
    .map((f) => `${f}${target}`);
}

/** The position's FEN (move counters 0 and 1). */
export function editorFen(pos: EditorPosition): string {
  const board = placementFen((square) => pos.board[square]);
  const castling = pos.castling.filter((c) => castlingPossible(pos, c)).join('') || '-';
  const ep = pos.enPassant && enPassantSquares(pos).includes(pos.enPassant) ? pos.enPassant : '-';
  return `${board} ${pos.turn} ${castling} ${ep} 0 1`;
}

const COLOR_NAME = { w: 'White', b: 'Black' } as const;

/** Why the position cannot be analysed, in a sentence; null when it can. */
export function editorProblem(pos: EditorPosition): string | null {
  const pieces = Object.values(pos.board);
  for (const [king, color] of [['K', 'w'], ['k', 'b']] as const) {
    const n = pieces.filter((p) => p === king).length;
    if (n === 0) return `${COLOR_NAME[color]} has no king: each side needs exactly one.`;
    if (n > 1) return `${COLOR_NAME[color]} has ${n} kings: each side needs exactly one.`;
  }
  const edge = Object.entries(pos.board)
    .filter(([sq, p]) => (p === 'P' || p === 'p') && (sq[1] === '1' || sq[1] === '8'))
    .map(([sq]) => sq)
    .sort();
  if (edge.length) return `No pawn may stand on the first or last rank (${edge.join(', ')}).`;
  const fen = editorFen(pos);
  const checked = validateFen(fen);
  if (!checked.ok) return (checked.error ?? 'Invalid FEN').replace(/^Invalid FEN:? ?/, 'The position is not valid: ');
  // The side not to move in check: its king could be taken.
  const other = pos.turn === 'w' ? 'b' : 'w';
  const fields = fen.split(' ');
  let inCheck = false;
  try {
    inCheck = new Chess([fields[0], other, '-', '-', '0', '1'].join(' ')).inCheck();
  } catch {
    return 'The position is not valid.';
  }
  if (inCheck) return `${COLOR_NAME[other]} is in check, but it is ${COLOR_NAME[pos.turn]}'s move.`;
  return null;
}
