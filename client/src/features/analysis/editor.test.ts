import { describe, expect, it } from 'vitest';
import { START_FEN } from '../../lib/chess';
import {
  castlingPossible,
  EDITOR_START,
  editorClear,
  editorFen,
  editorFromFen,
  editorProblem,
  editorPut,
  enPassantSquares,
  type EditorPosition,
} from './editor';

const from = (fen: string): EditorPosition => {
  const pos = editorFromFen(fen);
  if (!pos) throw new Error(`not read: ${fen}`);
  return pos;
};

describe('board editor position', () => {
  it('reads and writes FENs, the start position among them', () => {
    expect(editorFen(EDITOR_START)).toBe(START_FEN);
    expect(editorProblem(EDITOR_START)).toBeNull();
    const fen = 'r3k2r/p6p/8/3Pp3/8/8/P6P/R3K2R w KQkq e6 0 1';
    expect(editorFen(from(fen))).toBe(fen);
    expect(editorFen(from('8/8/8/8/8/8/8/8'))).toBe('8/8/8/8/8/8/8/8 w - - 0 1');
    for (const bad of ['', 'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP', 'rnbqkbnr/ppppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR', 'x7/8/8/8/8/8/8/8', '8/8/8/8/8/8/8/8 x', '8/8/8/8/8/8/8/8 w KX']) {
      expect(editorFromFen(bad)).toBeNull();
    }
  });

  it('puts and removes pieces; clears the board', () => {
    let pos = editorPut(EDITOR_START, 'e4', 'N');
    pos = editorPut(pos, 'g1', null);
    expect(editorFen(pos)).toBe('rnbqkbnr/pppppppp/8/8/4N3/8/PPPPPPPP/RNBQKB1R w KQkq - 0 1');
    expect(editorFen(editorClear())).toBe('8/8/8/8/8/8/8/8 w - - 0 1');
  });

  it('keeps only the castling rights its kings and rooks allow', () => {
    let pos = editorPut(EDITOR_START, 'h1', null);
    expect(castlingPossible(pos, 'K')).toBe(false);
    expect(castlingPossible(pos, 'Q')).toBe(true);
    expect(editorFen(pos).split(' ')[2]).toBe('Qkq');
    pos = editorPut(editorPut(pos, 'e8', null), 'd8', 'k');
    expect(editorFen(pos).split(' ')[2]).toBe('Q');
    pos = editorPut(pos, 'a1', null);
    expect(editorFen(pos).split(' ')[2]).toBe('-');
    // The right comes back with the rook, as asked for.
    expect(editorFen(editorPut(pos, 'a1', 'R')).split(' ')[2]).toBe('Q');
  });

  it('offers en-passant squares only behind a pawn that can just have double-stepped', () => {
    const pos = from('4k3/8/8/2pPp3/8/8/8/4K3 w - - 0 1');
    expect(enPassantSquares(pos)).toEqual(['c6', 'e6']);
    expect(editorFen({ ...pos, enPassant: 'e6' }).split(' ')[3]).toBe('e6');
    expect(editorFen({ ...pos, enPassant: 'd6' }).split(' ')[3]).toBe('-');
    expect(enPassantSquares(editorPut(pos, 'e7', 'n'))).toEqual(['c6']);
    expect(enPassantSquares({ ...pos, turn: 'b' })).toEqual([]);
    expect(enPassantSquares(from('4k3/8/8/8/3pP3/8/8/4K3 b - - 0 1'))).toEqual(['e3']);
  });

  it('says why a position cannot be analysed', () => {
    expect(editorProblem(editorClear())).toBe('White has no king: each side needs exactly one.');
    expect(editorProblem(from('8/8/8/8/8/8/8/4K3'))).toBe('Black has no king: each side needs exactly one.');
    expect(editorProblem(from('4k3/8/8/8/8/8/8/2K1K3'))).toBe('White has 2 kings: each side needs exactly one.');
    expect(editorProblem(from('P3k2p/8/8/8/8/8/8/4K2p'))).toBe('No pawn may stand on the first or last rank (a8, h1, h8).');
    expect(editorProblem(from('4k3/8/8/8/8/8/4R3/4K3 w'))).toBe("Black is in check, but it is White's move.");
    expect(editorProblem(from('4k3/8/8/8/8/8/4R3/4K3 b'))).toBeNull();
    expect(editorProblem(from('8/8/8/8/8/8/3k4/4K3 b'))).toBe("White is in check, but it is Black's move.");
  });
});
