import { describe, expect, it } from 'vitest';
import { boardAttempt, boardDestinations, boardPromote, type BoardTurn } from './boardInput';
import { checkedKing, parseFen, playUciOnFen, toFen } from './board';
import { destsFor, destsPromotion, dropUci, moveFromDests } from './dests';

// Chess960, king e1 between rooks b1 and g1 (the server's dests for it: tests/unit/server).
const C960 = '4k3/8/8/8/8/8/8/1R2K1R1 w GB - 0 1';
const C960_DESTS = { b1: ['a1', 'c1', 'd1', 'b2'], e1: ['b1', 'c1', 'd1', 'f1', 'g1', 'd2', 'e2', 'f2'], g1: ['f1', 'h1', 'g2'] };

describe('moves from the server’s dests', () => {
  it('lists the destinations, the own rook of a castling not as a capture', () => {
    expect(destsFor(C960_DESTS, C960, 'e1')).toContainEqual({ to: 'g1', capture: false });
    expect(destsFor(C960_DESTS, C960, 'a8')).toEqual([]);
    const fen = 'rnbqkbnr/ppp1pppp/8/3p4/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2';
    expect(destsFor({ e4: ['d5', 'e5'] }, fen, 'e4')).toEqual([
      { to: 'd5', capture: true },
      { to: 'e5', capture: false },
    ]);
  });

  it('castles by the king dropped onto its rook or on its own destination, sent as dropped', () => {
    const onRook = moveFromDests(C960_DESTS, C960, 'e1', 'g1');
    expect(onRook).toMatchObject({ uci: 'e1g1', san: 'O-O', capture: false });
    expect(onRook?.fen.split(' ')[0]).toBe('4k3/8/8/8/8/8/8/1R3RK1');
    const queenside = moveFromDests(C960_DESTS, C960, 'e1', 'b1');
    expect(queenside).toMatchObject({ uci: 'e1b1', san: 'O-O-O' });
    expect(queenside?.fen.split(' ')[0]).toBe('4k3/8/8/8/8/8/8/2KR2R1');
    expect(moveFromDests(C960_DESTS, C960, 'e1', 'c1')?.fen).toBe(queenside?.fen);
    expect(moveFromDests(C960_DESTS, C960, 'e1', 'e3')).toBeNull(); // not in the dests
    expect(dropUci('e1', 'h1')).toBe('e1h1');
    // The castling rights of the side that castled are gone; the other's stay.
    expect(onRook?.fen.split(' ')[2]).toBe('-');
  });

  it('asks for the promotion piece and plays it', () => {
    const fen = '7k/P7/8/8/8/8/8/K7 w - - 0 1';
    const dests = { a7: ['a8'], a1: ['b1', 'a2', 'b2'] };
    expect(destsPromotion(dests, fen, 'a7', 'a8')).toBe(true);
    expect(destsPromotion(dests, fen, 'a1', 'a2')).toBe(false);
    expect(moveFromDests(dests, fen, 'a7', 'a8')).toBeNull(); // no piece chosen
    const turn: BoardTurn = { fen, movable: 'white', actor: 'white', premoves: [], dests };
    const step = boardAttempt(turn, 'a7', 'a8');
    expect(step.input).toEqual({ promotion: { from: 'a7', to: 'a8' } });
    const chosen = boardPromote({ selected: null, promotion: { from: 'a7', to: 'a8' } }, fen, 'n', dests);
    expect(chosen.move).toMatchObject({ uci: 'a7a8n', san: 'a8=N' });
  });

  it('decides the board’s moves by the dests, not chess.js, in a live game', () => {
    const turn: BoardTurn = { fen: C960, movable: 'white', actor: 'white', premoves: [], dests: C960_DESTS };
    expect(boardDestinations(turn, 'e1').map((d) => d.to)).toEqual(C960_DESTS.e1);
    expect(boardAttempt(turn, 'e1', 'g1')).toMatchObject({ accepted: true, move: { uci: 'e1g1' } });
    // No dests yet (null): nothing moves.
    expect(boardAttempt({ ...turn, dests: null }, 'e1', 'f1')).toEqual({ input: {}, accepted: false });
  });

  it('reads Three-check FENs and counts the checks a move gives', () => {
    const fen = 'rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2 +0+0';
    const after = playUciOnFen(fen, 'd1h5');
    expect(after).toBe('rnbqkbnr/pppp1ppp/8/4p2Q/4P3/8/PPPP1PPP/RNB1KBNR b KQkq - 1 2 +0+0');
    const knight = playUciOnFen(after!, 'b8c6');
    const check = playUciOnFen(knight!, 'h5f7');
    expect(check?.endsWith(' +1+0')).toBe(true);
    expect(checkedKing(check!)).toBe('e8');
    expect(checkedKing(knight!)).toBeNull();
    expect(toFen(parseFen(fen)!)).toBe(fen);
  });

  it('replays en passant and Shredder-FEN castling fields', () => {
    const ep = 'rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3';
    expect(playUciOnFen(ep, 'e5f6')?.split(' ')[0]).toBe('rnbqkbnr/ppp1p1pp/5P2/3p4/8/8/PPPP1PPP/RNBQKBNR');
    const shredder = 'nrkbbqrn/pppppppp/8/8/8/8/PPPPPPPP/NRKBBQRN w GBgb - 0 1';
    expect(parseFen(shredder)?.squares[2]).toBe('K');
    expect(playUciOnFen(shredder, 'g1h1')?.split(' ')[2]).toBe('Bgb');
    expect(parseFen('not a fen')).toBeNull();
  });
});
