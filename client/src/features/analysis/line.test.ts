import { describe, expect, it } from 'vitest';
import { normaliseFen, playUci, START_FEN } from '../../lib/chess';
import { lineFen, lineFrom, linePlay, lineSan, lineUndo } from './line';

describe('analysis board line', () => {
  it('plays moves on the start position and takes them back', () => {
    let line = lineFrom(START_FEN);
    expect(lineFen(line)).toBe(START_FEN);
    line = linePlay(line, playUci(START_FEN, 'e2e4')!);
    line = linePlay(line, playUci(lineFen(line), 'c7c5')!);
    expect(lineSan(line)).toEqual(['e4', 'c5']);
    expect(lineFen(line)).toBe('rnbqkbnr/pp1ppppp/8/2p5/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2');
    line = lineUndo(line);
    expect(lineSan(line)).toEqual(['e4']);
    expect(lineUndo(lineUndo(line))).toEqual(lineFrom(START_FEN));
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
