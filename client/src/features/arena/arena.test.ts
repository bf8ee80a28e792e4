import { describe, expect, it } from 'vitest';
import { arenaTimeText, formatCountdown, gameToOpen, sheetGames } from './arena';

describe('arena words', () => {
  it('counts down to the start, then to the end', () => {
    const a = { starts: 100000, ends: 100000 + 3725000 };
    expect(arenaTimeText({ ...a, status: 'created' }, 100000 - 65000)).toBe('Starts in 1:05');
    expect(arenaTimeText({ ...a, status: 'created' }, 100000)).toBe('Starting…');
    expect(arenaTimeText({ ...a, status: 'started' }, 100000)).toBe('Ends in 1:02:05');
    expect(arenaTimeText({ ...a, status: 'started' }, a.ends + 1)).toBe('Ending: the last games finish');
    expect(arenaTimeText({ ...a, status: 'finished' }, 0)).toBe('Finished');
    expect(formatCountdown(400)).toBe('0:01');
  });

  it('lists the sheet most recent first, bonus wins marked', () => {
    expect(sheetGames([2, 0, 2, 4, 5])).toEqual([
      { points: 5, bonus: true },
      { points: 4, bonus: true },
      { points: 2, bonus: false },
      { points: 0, bonus: false },
      { points: 2, bonus: false },
    ]);
    expect(sheetGames([1, 2, 3], 2).map((g) => g.points)).toEqual([3, 2]);
  });

  it('opens only a game not seen before', () => {
    const seen = new Set(['g1']);
    expect(gameToOpen('g1', seen)).toBeNull();
    expect(gameToOpen(undefined, seen)).toBeNull();
    expect(gameToOpen('g2', seen)).toBe('g2');
  });
});
