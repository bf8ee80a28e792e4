import { describe, expect, it } from 'vitest';
import {
  customTimeControl,
  DAILY_DAYS,
  dailyDays,
  formatClock,
  formatDaily,
  formatTimeControl,
  PRESETS,
  speedOf,
} from './timeControl';

describe('time controls', () => {
  it('has the lobby presets in order', () => {
    expect(PRESETS.map(formatTimeControl)).toEqual([
      '1+0', '2+1', '3+0', '3+2', '5+0', '5+3', '10+0', '10+5', '15+10', '30+0',
    ]);
  });
  it('names speeds like lichess', () => {
    expect(speedOf({ minutes: 1, increment: 0 })).toBe('bullet');
    expect(speedOf({ minutes: 2, increment: 1 })).toBe('bullet');
    expect(speedOf({ minutes: 3, increment: 0 })).toBe('blitz');
    expect(speedOf({ minutes: 5, increment: 3 })).toBe('blitz');
    expect(speedOf({ minutes: 10, increment: 0 })).toBe('rapid');
    expect(speedOf({ minutes: 30, increment: 0 })).toBe('classical');
    expect(speedOf('unlimited')).toBe('unlimited');
    expect(formatTimeControl({ minutes: 0.5, increment: 0 })).toBe('½+0');
  });
  it('checks custom time controls against the server’s limits', () => {
    expect(customTimeControl(7, 4)).toEqual({ ok: true, time: { minutes: 7, increment: 4 } });
    expect(customTimeControl(0.1, 0).ok).toBe(false);
    expect(customTimeControl(181, 0).ok).toBe(false);
    expect(customTimeControl(5, 1.5).ok).toBe(false);
    expect(customTimeControl(Number('x'), 0).ok).toBe(false);
    // Decimals are fine, to the second; the refusal says so.
    expect(customTimeControl(1.5, 0)).toEqual({ ok: true, time: { minutes: 1.5, increment: 0 } });
    expect(customTimeControl(4 / 3 + 0.001, 0)).toEqual({ ok: true, time: { minutes: 80 / 60, increment: 0 } });
    const refused = customTimeControl(0.1, 0);
    expect(!refused.ok && refused.error).toMatch(/decimals such as 1\.5 are fine/);
  });
  it('formats clocks with tenths under ten seconds', () => {
    expect(formatClock(300000)).toBe('5:00');
    expect(formatClock(59999)).toBe('0:59');
    expect(formatClock(10000)).toBe('0:10');
    expect(formatClock(9949)).toBe('0:09.9');
    expect(formatClock(-5)).toBe('0:00.0');
    expect(formatClock(3723000)).toBe('1:02:03');
  });
  it('names daily games and their time left in days and hours', () => {
    expect(DAILY_DAYS).toEqual([1, 2, 3, 5, 7, 14]);
    expect(formatTimeControl({ days: 1 })).toBe('1 day');
    expect(formatTimeControl({ days: 3 })).toBe('3 days');
    expect(speedOf({ days: 7 })).toBe('correspondence');
    expect(dailyDays({ days: 2 })).toBe(2);
    expect(dailyDays({ minutes: 5, increment: 0 })).toBeNull();
    expect(dailyDays('unlimited')).toBeNull();
    const hour = 3600000;
    expect(formatDaily(2 * 24 * hour + 5 * hour + 59 * 60000)).toBe('2 days 5 hours');
    expect(formatDaily(24 * hour)).toBe('1 day');
    expect(formatDaily(5 * hour + 12 * 60000 + 30000)).toBe('5 hours 12 minutes');
    expect(formatDaily(hour)).toBe('1 hour');
    expect(formatDaily(12 * 60000)).toBe('12 minutes');
    expect(formatDaily(61000)).toBe('1 minute');
    expect(formatDaily(9400)).toBe('0:09.4');
    expect(formatDaily(-5)).toBe('0:00.0');
  });
});
