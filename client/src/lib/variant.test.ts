import { describe, expect, it } from 'vitest';
import { describeOutcome } from './outcome';
import { checksOfFen, readStart, variantLabel, variantName } from './variant';

describe('variants', () => {
  it('names the variants as lichess does, with a Chess960 array’s number', () => {
    expect(variantName('threeCheck')).toBe('Three-check');
    expect(variantName(undefined)).toBe('Standard');
    expect(variantLabel('chess960', 518)).toBe('Chess960 #518');
    expect(variantLabel('chess960')).toBe('Chess960');
    expect(variantLabel('kingOfTheHill', 3)).toBe('King of the Hill');
  });

  it('reads a form’s start: an optional Chess960 number, a required FEN', () => {
    expect(readStart('standard', '12', 'x')).toEqual({ ok: true, start: {} });
    expect(readStart('chess960', '', '')).toEqual({ ok: true, start: { variant: 'chess960' } });
    expect(readStart('chess960', ' 959 ', '')).toEqual({ ok: true, start: { variant: 'chess960', position: 959 } });
    expect(readStart('chess960', '960', '')).toMatchObject({ ok: false });
    expect(readStart('chess960', '-1', '')).toMatchObject({ ok: false });
    expect(readStart('fromPosition', '', '  ')).toMatchObject({ ok: false });
    expect(readStart('fromPosition', '', ' 4k3/8/8/8/8/8/4P3/4K3  w - - 0 1')).toEqual({
      ok: true,
      start: { variant: 'fromPosition', fen: '4k3/8/8/8/8/8/4P3/4K3 w - - 0 1' },
    });
    expect(readStart('threeCheck', '5', 'x')).toEqual({ ok: true, start: { variant: 'threeCheck' } });
  });

  it('reads Three-check’s checks from a FEN and says the variants’ ends in words', () => {
    expect(checksOfFen('rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 +2+1')).toEqual({ white: 2, black: 1 });
    expect(checksOfFen('rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1')).toBeNull();
    expect(describeOutcome('1-0', 'three_check', 'white')).toMatchObject({ title: 'White wins', detail: 'White gave the third check' });
    expect(describeOutcome('0-1', 'king_of_the_hill', 'black').detail).toBe('Black king reached the centre');
  });
});
