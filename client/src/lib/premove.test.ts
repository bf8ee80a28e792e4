import { describe, expect, it } from 'vitest';
import { destsOf as serverDests } from '../net/fixtures';
import { applyPremoves, playPremove, premoveDestinations } from './premove';

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
    expect(dests(AFTER_E4, 'e1', 'white')).toEqual(['a1', 'c1', 'd1', 'd2', 'e2', 'f1', 'f2', 'g1', 'h1']);
    expect(dests(AFTER_E4, 'g8', 'black')).toEqual(['e7', 'f6', 'h6']);
  });
  it('lets a premove recapture onto a square the player’s own piece stands on now', () => {
    // 1. e4 c5 2. d4, Black to move: White queues Qxd4 for after ...cxd4, though its own pawn
    // stands on d4 now; the queen's line reaches it, and once Black has taken it is legal.
    const afterD4 = 'rnbqkbnr/pp1ppppp/8/2p5/3PP3/8/PPP2PPP/RNBQKBNR b KQkq - 0 2';
    expect(dests(afterD4, 'd1', 'white')).toContain('d4');
    const afterCxd4 = 'rnbqkbnr/pp1ppppp/8/8/3pP3/8/PPP2PPP/RNBQKBNR w KQkq - 0 3';
    expect(playPremove(afterCxd4, serverDests(afterCxd4), { from: 'd1', to: 'd4' })?.san).toBe('Qxd4');
  });
  it('plays a premove only if it is still legal, promoting to a queen', () => {
    const afterC5 = 'rnbqkbnr/pp1ppppp/8/2p5/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2';
    expect(playPremove(afterC5, serverDests(afterC5), { from: 'd2', to: 'd4' })?.san).toBe('d4');
    expect(playPremove(afterC5, serverDests(afterC5), { from: 'e4', to: 'e5' })?.san).toBe('e5');
    const blocked = 'rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2';
    expect(playPremove(blocked, serverDests(blocked), { from: 'e4', to: 'e5' })).toBeNull();
    const promo = '7k/P7/8/8/8/8/8/K7 w - - 0 1';
    expect(playPremove(promo, serverDests(promo), { from: 'a7', to: 'a8' })?.san).toBe('a8=Q+');
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


describe('premoves in Chess960', () => {
  // Array 0 (BBQNNRKR) after a few moves: the king on g1 between its rooks f1 and h1, c1 and
  // d1 cleared.
  const fen = 'bbqnnrkr/pppppppp/8/8/8/2NQ4/PPPPPPPP/BB3RKR b KQkq - 1 1';
  it('reads the array and castles onto an own rook', () => {
    const to = premoveDestinations(fen, 'g1', 'white').map((d) => d.to).sort();
    expect(to).toEqual(expect.arrayContaining(['f1', 'h1', 'c1']));
    // Onto the f1 rook: queenside, the king to c1 and the rook to d1.
    expect(applyPremoves(fen, [{ from: 'g1', to: 'f1' }]).split(' ')[0]).toBe('bbqnnrkr/pppppppp/8/8/8/2NQ4/PPPPPPPP/BBKR3R');
  });
});
