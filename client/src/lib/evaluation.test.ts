import { describe, expect, it } from 'vitest';
import { describeScore, formatScore, numberedPv, whiteShare } from './evaluation';

describe('evaluation', () => {
  it('writes scores in pawns or moves to mate, from White’s side', () => {
    expect(formatScore({ cp: -18 })).toBe('-0.2');
    expect(formatScore({ cp: 123 })).toBe('+1.2');
    expect(formatScore({ cp: 3 })).toBe('0.0');
    expect(formatScore({ mate: 3 })).toBe('#3');
    expect(formatScore({ mate: -2 })).toBe('#-2');
    expect(describeScore({ mate: -1 })).toBe('Black mates in 1 move');
    expect(describeScore({ cp: 250 })).toBe('White better by 2.5 pawns');
    expect(describeScore({ cp: 0 })).toBe('equal');
  });

  it('fills the bar by White’s share', () => {
    expect(whiteShare({ cp: 0 })).toBe(50);
    expect(whiteShare({ cp: 300 })).toBeGreaterThan(70);
    expect(whiteShare({ cp: -300 })).toBeLessThan(30);
    expect(whiteShare({ mate: 2 })).toBe(100);
    expect(whiteShare({ mate: -2 })).toBe(0);
  });

  it('numbers the variation from the position’s side and move', () => {
    const afterE4 = 'rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1';
    expect(numberedPv(afterE4, ['e5', 'Nf3', 'Nc6', 'Bb5'])).toBe('1… e5 2. Nf3 Nc6 3. Bb5');
    const afterE4E5 = 'rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2';
    expect(numberedPv(afterE4E5, ['Nf3', 'Nc6'])).toBe('2. Nf3 Nc6');
    expect(numberedPv(afterE4E5, [])).toBe('');
  });
});
