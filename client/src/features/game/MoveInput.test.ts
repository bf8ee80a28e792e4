import { describe, expect, it } from 'vitest';
import { readTypedMove } from './MoveInput';

// Chess960, king e1 between rooks b1 and g1, and its dests as the server sends them.
const C960 = '4k3/8/8/8/8/8/8/1R2K1R1 w GB - 0 1';
const C960_DESTS = { b1: ['a1', 'c1', 'd1', 'b2'], e1: ['b1', 'c1', 'd1', 'f1', 'g1', 'd2', 'e2', 'f2'], g1: ['f1', 'h1', 'g2'] };

describe('typed moves on the game page', () => {
  it('takes SAN where chess.js reads it and UCI against the dests, legal by the dests', () => {
    const start = 'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1';
    expect(readTypedMove(start, { g1: ['f3', 'h3'] }, 'Nf3')?.uci).toBe('g1f3');
    expect(readTypedMove(start, { g1: ['h3'] }, 'Nf3')).toBeNull(); // not in the dests
    expect(readTypedMove(start, null, 'Nf3')).toBeNull();
    expect(readTypedMove(C960, C960_DESTS, 'e1b1')).toMatchObject({ uci: 'e1b1', san: 'O-O-O' });
  });
});
