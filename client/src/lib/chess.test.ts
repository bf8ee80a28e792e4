import { describe, expect, it } from 'vitest';
import {
  checkedKingSquare,
  claimableDraw,
  isPromotion,
  legalDestinations,
  normaliseFen,
  parseTypedMove,
  playUci,
  replay,
  START_FEN,
  tryMove,
} from './chess';

const PROMO = 'r1bqkb1r/pP1npppp/5n2/8/8/8/1PPP1PPP/RNBQKBNR w KQkq - 1 5';

describe('chess helpers', () => {
  it('replays a history and stops at the first move that does not replay', () => {
    expect(replay(START_FEN, ['e2e4', 'e7e5'])).toHaveLength(3);
    expect(replay(START_FEN, ['e2e4', 'e2e4', 'g1f3'])).toHaveLength(2);
  });

  it('lists legal destinations, marking captures', () => {
    expect(legalDestinations(START_FEN, 'g1').map((d) => d.to).sort()).toEqual(['f3', 'h3']);
    expect(legalDestinations(START_FEN, 'g8')).toEqual([]); // not Black's turn
    expect(legalDestinations(PROMO, 'b7')).toEqual(
      expect.arrayContaining([{ to: 'a8', capture: true }, { to: 'c8', capture: true }, { to: 'b8', capture: false }]),
    );
  });

  it('tries board moves without throwing', () => {
    expect(tryMove(START_FEN, 'e2', 'e5')).toBeNull();
    expect(tryMove(START_FEN, 'e2', 'e4')).toMatchObject({ uci: 'e2e4', san: 'e4', capture: false });
    expect(isPromotion(PROMO, 'b7', 'a8')).toBe(true);
    expect(isPromotion(START_FEN, 'e2', 'e4')).toBe(false);
    expect(tryMove(PROMO, 'b7', 'a8', 'n')).toMatchObject({ uci: 'b7a8n', san: 'bxa8=N', capture: true });
    expect(playUci(START_FEN, 'e1g1')).toBeNull();
  });

  it('reads typed moves the way people write them', () => {
    const san = (fen: string, text: string) => parseTypedMove(fen, text)?.san ?? null;
    expect(san(START_FEN, 'Nf3')).toBe('Nf3');
    expect(san(START_FEN, 'nf3')).toBe('Nf3');
    expect(san(START_FEN, 'g1f3')).toBe('Nf3');
    expect(san(START_FEN, ' e4 ')).toBe('e4');
    expect(san(START_FEN, 'e5')).toBeNull();
    expect(san(START_FEN, 'hello')).toBeNull();
    expect(san(PROMO, 'bxa8=Q')).toBe('bxa8=Q');
    expect(san(PROMO, 'bxa8Q')).toBe('bxa8=Q');
    expect(san(PROMO, 'bxa8q')).toBe('bxa8=Q');
    expect(san(PROMO, 'b7c8n')).toBe('bxc8=N');
    const castle = 'rnbqk2r/pppp1ppp/5n2/2b1p3/2B1P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 4 4';
    expect(san(castle, 'O-O')).toBe('O-O');
    expect(san(castle, '0-0')).toBe('O-O');
    expect(san(castle, 'O-O!?')).toBe('O-O');
    expect(san(castle, 'o-o')).toBe('O-O');
    // Any case: the bishop's "bc4" (no pawn can go there from b), upper-case squares.
    const italian = 'rnbqkbnr/pppp1ppp/8/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 2';
    expect(san(italian, 'bc4')).toBe('Bc4');
    expect(san(italian, 'BC4')).toBe('Bc4');
    expect(san(START_FEN, 'NF3')).toBe('Nf3');
    expect(san(START_FEN, 'E4')).toBe('e4');
    // "bxc3": the b-pawn's capture when it can take there, else the bishop's.
    const both = 'rnbqkbnr/pppp1ppp/8/8/4p3/2n5/PPPPPPPP/RNBQKBNR w KQkq - 0 1';
    expect(san(both, 'bxc3')).toBe('bxc3');
    expect(san(both, 'Bxc3')).toBeNull(); // no bishop reaches c3 here
    expect(san(italian, 'bb5')).toBe('Bb5');
  });

  it('finds the king in check', () => {
    const mated = 'rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3';
    expect(checkedKingSquare(mated)).toBe('e1');
    expect(checkedKingSquare(START_FEN)).toBeNull();
  });

  it('sees draws the side to move may claim', () => {
    const knights = ['g1f3', 'g8f6', 'f3g1', 'f6g8', 'g1f3', 'g8f6', 'f3g1', 'f6g8'];
    const fens = replay(START_FEN, knights);
    expect(claimableDraw(fens.slice(0, 8))).toBeNull();
    expect(claimableDraw(fens)).toBe('threefold_repetition');
    expect(claimableDraw(['8/8/8/4k3/8/8/8/4K2R w - - 100 80'])).toBe('fifty_moves');
  });
});

describe('normaliseFen', () => {
  it('reads a FEN, with or without the move counters, and refuses what is not one', () => {
    expect(normaliseFen(`  ${START_FEN} `)).toBe(START_FEN);
    expect(normaliseFen('8/8/8/4k3/8/8/4K3/4R3 w - -')).toBe('8/8/8/4k3/8/8/4K3/4R3 w - - 0 1');
    expect(normaliseFen('not a fen')).toBeNull();
    expect(normaliseFen('8/8/8/8/8/8/8/8 w - - 0 1')).toBeNull(); // no kings
  });
});
