import { describe, expect, it } from 'vitest';
import {
  checkedKingSquare,
  playPremove,
  premoveDestinations,
  applyPremoves,
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

describe('premoves', () => {
  const AFTER_E4 = 'rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1';
  const dests = (fen: string, square: string, color: 'white' | 'black') =>
    premoveDestinations(fen, square, color).map((d) => d.to).sort();
  it('lists where a piece could go by its geometry, as on lichess', () => {
    // A pawn: ahead, and both forward diagonals (a capture may be there by then).
    expect(dests(AFTER_E4, 'd2', 'white')).toEqual(['c3', 'd3', 'd4', 'e3']);
    expect(dests(AFTER_E4, 'f1', 'white')).toContain('b5');
    expect(dests(AFTER_E4, 'd7', 'white')).toEqual([]);
    // Sliders see through pieces to the edge; the king has its castling squares.
    expect(dests(AFTER_E4, 'a1', 'white')).toEqual(['a2', 'a3', 'a4', 'a5', 'a6', 'a7', 'a8', 'b1', 'c1', 'd1', 'e1', 'f1', 'g1', 'h1']);
    expect(dests(AFTER_E4, 'e1', 'white')).toEqual(['c1', 'd1', 'd2', 'e2', 'f1', 'f2', 'g1']);
    expect(dests(AFTER_E4, 'g8', 'black')).toEqual(['e7', 'f6', 'h6']);
  });
  it('lets a premove recapture onto a square the player’s own piece stands on now', () => {
    // 1. e4 c5 2. d4, Black to move: White queues Qxd4 for after ...cxd4, though its own pawn
    // stands on d4 now; the queen's line reaches it, and once Black has taken it is legal.
    const afterD4 = 'rnbqkbnr/pp1ppppp/8/2p5/3PP3/8/PPP2PPP/RNBQKBNR b KQkq - 0 2';
    expect(dests(afterD4, 'd1', 'white')).toContain('d4');
    const afterCxd4 = 'rnbqkbnr/pp1ppppp/8/8/3pP3/8/PPP2PPP/RNBQKBNR w KQkq - 0 3';
    expect(playPremove(afterCxd4, { from: 'd1', to: 'd4' })?.san).toBe('Qxd4');
  });
  it('plays a premove only if it is still legal, promoting to a queen', () => {
    const afterC5 = 'rnbqkbnr/pp1ppppp/8/2p5/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2';
    expect(playPremove(afterC5, { from: 'd2', to: 'd4' })?.san).toBe('d4');
    expect(playPremove(afterC5, { from: 'e4', to: 'e5' })?.san).toBe('e5');
    const blocked = 'rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2';
    expect(playPremove(blocked, { from: 'e4', to: 'e5' })).toBeNull();
    const promo = '7k/P7/8/8/8/8/8/K7 w - - 0 1';
    expect(playPremove(promo, { from: 'a7', to: 'a8' })?.san).toBe('a8=Q+');
  });
  it('shows a queue of premoves made by their geometry, and where the next may go from there', () => {
    expect(applyPremoves(AFTER_E4, [])).toBe(AFTER_E4);
    // White queues Nf3 then Bc4 then castles: the pieces stand there, the rook beside the king.
    const queued = applyPremoves(AFTER_E4, [
      { from: 'g1', to: 'f3' },
      { from: 'f1', to: 'c4' },
      { from: 'e1', to: 'g1' },
    ]);
    expect(queued).toBe('rnbqkbnr/pppppppp/8/8/2B1P3/5N2/PPPP1PPP/RNBQ1RK1 b - - 0 1');
    expect(dests(queued, 'c4', 'white')).toContain('f7');
    // A capture replaces what stood there; a pawn on the last rank is a queen.
    expect(applyPremoves('7k/P7/8/8/8/8/8/K7 b - - 0 1', [{ from: 'a7', to: 'a8' }])).toBe('Q6k/8/8/8/8/8/8/K7 b - - 0 1');
    expect(applyPremoves(AFTER_E4, [{ from: 'd1', to: 'd7' }]).split(' ')[0]).toBe('rnbqkbnr/pppQpppp/8/8/4P3/8/PPPP1PPP/RNB1KBNR');
    // A premove from a square emptied by the one before ends the queue there.
    expect(applyPremoves(AFTER_E4, [{ from: 'g1', to: 'f3' }, { from: 'g1', to: 'h3' }])).toBe(
      applyPremoves(AFTER_E4, [{ from: 'g1', to: 'f3' }]),
    );
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
