import { describe, expect, it } from 'vitest';
import {
  BOARD_IDLE,
  boardActor,
  boardAttempt,
  boardClick,
  boardDestinations,
  boardPromote,
  piecesOf,
  type BoardTurn,
} from './boardInput';
import { START_FEN } from './chess';

const AFTER_E4 = 'rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1';
const PROMO = 'r1bqkb1r/pP1npppp/5n2/8/8/8/1PPP1PPP/RNBQKBNR w KQkq - 1 5';

const toMove = (fen: string, color: 'white' | 'black' = 'white'): BoardTurn => ({ fen, movable: color, actor: color, premoves: [] });
const premoving = (fen: string, color: 'white' | 'black' = 'white'): BoardTurn => ({ fen, movable: null, actor: color, premoves: [] });

describe('board input', () => {
  it('lets the side to move handle its pieces, else the side that may premove', () => {
    expect(boardActor('white', null, true)).toBe('white');
    expect(boardActor(null, 'black', true)).toBe('black');
    expect(boardActor(null, 'black', false)).toBeNull();
  });

  it('selects an own piece on click, shows its destinations, and moves on the second click', () => {
    const turn = toMove(START_FEN);
    let step = boardClick(BOARD_IDLE, turn, 'g1');
    expect(step.input).toEqual({ selected: 'g1' });
    expect(step.premove).toBeUndefined();
    expect(boardDestinations(turn, 'g1').map((d) => d.to).sort()).toEqual(['f3', 'h3']);
    step = boardClick({ selected: 'g1', promotion: null }, turn, 'f3');
    expect(step.move).toMatchObject({ uci: 'g1f3', san: 'Nf3' });
    expect(step.input).toEqual({ selected: null });
  });

  it('unselects on a second click of the same piece, and ignores the opponent’s pieces', () => {
    const turn = toMove(START_FEN);
    expect(boardClick({ selected: 'g1', promotion: null }, turn, 'g1').input).toEqual({ selected: null });
    expect(boardClick(BOARD_IDLE, turn, 'e7').input).toEqual({ selected: null });
    expect(boardClick(BOARD_IDLE, { ...turn, movable: null, actor: null }, 'e2').input).toEqual({ selected: null });
  });

  it('snaps an illegal drop back and accepts a legal one', () => {
    const turn = toMove(START_FEN);
    expect(boardAttempt(turn, 'e2', 'e5')).toEqual({ input: {}, accepted: false });
    expect(boardAttempt(turn, 'e2', 'e2')).toEqual({ input: {}, accepted: false });
    const step = boardAttempt(turn, 'e2', 'e4');
    expect(step).toMatchObject({ accepted: true, move: { uci: 'e2e4' }, input: { selected: null } });
  });

  it('opens the promotion chooser and sends the piece chosen', () => {
    const turn = toMove(PROMO);
    const step = boardAttempt(turn, 'b7', 'a8');
    expect(step).toEqual({ input: { promotion: { from: 'b7', to: 'a8' } }, accepted: false });
    const waiting = { selected: 'b7', promotion: { from: 'b7', to: 'a8' } };
    // Clicks wait while the chooser is open.
    expect(boardClick(waiting, turn, 'c8')).toEqual({ input: {}, accepted: false });
    const chosen = boardPromote(waiting, PROMO, 'n');
    expect(chosen.input).toEqual({ promotion: null });
    expect(chosen.move).toMatchObject({ uci: 'b7a8n' });
  });

  it('queues a premove while the opponent is to move, and cancels it', () => {
    const turn = premoving(AFTER_E4);
    // The piece goes back to its square; the premove shows on the squares.
    expect(boardAttempt(turn, 'd2', 'd4')).toEqual({ input: { selected: null }, premove: { from: 'd2', to: 'd4' }, accepted: false });
    expect(boardAttempt(turn, 'd2', 'd5')).toEqual({ input: { selected: null }, premove: null, accepted: false });
    expect(boardDestinations(turn, 'g1').map((d) => d.to).sort()).toEqual(['e2', 'f3', 'h3']);
    // A click elsewhere cancels the queued premoves.
    const queued = { ...turn, premoves: [{ from: 'd2', to: 'd4' }] };
    expect(boardClick(BOARD_IDLE, queued, 'h5')).toEqual({ input: { selected: null }, premove: null, accepted: false });
    expect(boardClick({ selected: 'g1', promotion: null }, queued, 'f3').premove).toEqual({ from: 'g1', to: 'f3' });
    // Picking another piece keeps the queue: its premove comes after.
    expect(boardClick(BOARD_IDLE, queued, 'b1')).toEqual({ input: { selected: 'b1' }, accepted: false });
  });

  it('names the piece on every occupied square', () => {
    const pieces = piecesOf(AFTER_E4);
    expect(pieces.e4).toBe('white pawn');
    expect(pieces.e2).toBeUndefined();
    expect(pieces.g8).toBe('black knight');
    expect(Object.keys(pieces)).toHaveLength(32);
  });
});
