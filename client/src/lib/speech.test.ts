import { Chess } from 'chess.js';
import { describe, expect, it } from 'vitest';
import { START_FEN } from './chess';
import { moveBetween, movesBetween, movesWords, moveWords } from './speech';

/** The words for `san` played in `fen`. */
function words(fen: string, san: string): string {
  return moveWords(new Chess(fen).move(san));
}

/** The position after the moves from the start. */
function after(...sans: string[]): string {
  const c = new Chess();
  for (const s of sans) c.move(s);
  return c.fen();
}

describe('moves in words', () => {
  it('names the piece and its squares', () => {
    expect(words(START_FEN, 'Nf3')).toBe('knight from g1 to f3');
    expect(words(START_FEN, 'e4')).toBe('pawn from e2 to e4');
  });

  it('says what is taken, and check or checkmate', () => {
    const italian = after('e4', 'e5', 'Bc4', 'Nc6', 'Nf3', 'd6');
    expect(words(italian, 'Bxf7+')).toBe('bishop from c4 takes pawn on f7, check');
    expect(words(after('f3', 'e5', 'g4'), 'Qh4#')).toBe('queen from d8 to h4, checkmate');
  });

  it('says castling with the side, and promotion with the piece', () => {
    expect(words(after('e4', 'e5', 'Nf3', 'Nc6', 'Bc4', 'Bc5'), 'O-O')).toBe('white castles kingside');
    expect(words('r3k3/8/8/8/8/8/8/4K3 b q - 0 1', 'O-O-O')).toBe('black castles queenside');
    expect(words('7k/4P3/8/8/8/8/8/4K3 w - - 0 1', 'e8=Q+')).toBe('pawn from e7 to e8, promotes to queen, check');
    expect(words('3rk3/4P3/4K3/8/8/8/8/8 w - - 0 1', 'exd8=N')).toBe('pawn from e7 takes rook on d8, promotes to knight');
    expect(words('4k3/8/8/8/8/8/4p3/7K b - - 0 1', 'e1=Q+')).toBe('pawn from e2 to e1, promotes to queen, check');
    expect(words('7k/4P3/6K1/8/8/8/8/8 w - - 0 1', 'e8=R#')).toBe('pawn from e7 to e8, promotes to rook, checkmate');
  });

  it('says en passant', () => {
    expect(words(after('e4', 'a6', 'e5', 'd5'), 'exd6')).toBe('pawn from e5 takes pawn on d6, en passant');
  });
});

describe('the move between two positions', () => {
  it('finds the move with the last move’s squares that leads to the next position', () => {
    const m = moveBetween(START_FEN, after('Nf3'), { from: 'g1', to: 'f3' });
    expect(m?.san).toBe('Nf3');
    const promo = '7k/4P3/8/8/8/8/8/4K3 w - - 0 1';
    const next = new Chess(promo);
    next.move('e8=N');
    expect(moveBetween(promo, next.fen(), { from: 'e7', to: 'e8' })?.promotion).toBe('n');
  });

  it('finds none when the positions are not one move apart, or a FEN is bad', () => {
    expect(moveBetween(after('e4'), START_FEN, { from: 'e2', to: 'e4' })).toBeNull(); // browsed back
    expect(moveBetween(START_FEN, after('e4', 'e5'), { from: 'e7', to: 'e5' })).toBeNull();
    expect(moveBetween(START_FEN, after('e4'), null)).toBeNull();
    expect(moveBetween(START_FEN, START_FEN, { from: 'e2', to: 'e4' })).toBeNull();
    expect(moveBetween('not a fen', after('e4'), { from: 'e2', to: 'e4' })).toBeNull();
  });
});

describe('the moves between two positions', () => {
  it('finds one move, or two when a reply and a premove came together', () => {
    expect(movesWords(START_FEN, after('Nf3'), { from: 'g1', to: 'f3' })).toBe('knight from g1 to f3');
    const afterF3 = after('f3');
    expect(movesWords(afterF3, after('f3', 'e5', 'g4'), { from: 'g2', to: 'g4' })).toBe(
      'pawn from e7 to e5; pawn from g2 to g4',
    );
  });

  it('finds none further away, or for a last move that does not fit', () => {
    expect(movesBetween(START_FEN, after('e4', 'e5', 'Nf3'), { from: 'g1', to: 'f3' })).toEqual([]);
    expect(movesBetween(START_FEN, after('e4', 'e5'), { from: 'd7', to: 'd5' })).toEqual([]);
    expect(movesWords(after('e4'), START_FEN, { from: 'e2', to: 'e4' })).toBe('');
    expect(movesWords('not a fen', after('e4', 'e5'), { from: 'e7', to: 'e5' })).toBe('');
  });
});
