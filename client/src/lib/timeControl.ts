/*
 * Time controls: the lobby's presets, their names ("3+2"), their speed category, and clock
 * readouts; daily (correspondence) games' days per move and their time left until a deadline.
 */
import type { TimeControl } from '../net/protocol';

export interface Preset {
  minutes: number;
  increment: number;
}

export const PRESETS: readonly Preset[] = [
  { minutes: 1, increment: 0 },
  { minutes: 2, increment: 1 },
  { minutes: 3, increment: 0 },
  { minutes: 3, increment: 2 },
  { minutes: 5, increment: 0 },
  { minutes: 5, increment: 3 },
  { minutes: 10, increment: 0 },
  { minutes: 10, increment: 5 },
  { minutes: 15, increment: 10 },
  { minutes: 30, increment: 0 },
];

/** The limits the server accepts (see server/src/core/types.h). */
export const LIMITS = { minMinutes: 0.25, maxMinutes: 180, maxIncrement: 180 } as const;

/** Days per move a daily (correspondence) game may have, as on lichess. */
export const DAILY_DAYS: readonly number[] = [1, 2, 3, 5, 7, 14];

/** A daily game's days per move, or null for a clock or none. */
export function dailyDays(tc: TimeControl): number | null {
  return typeof tc === 'object' && 'days' in tc ? tc.days : null;
}

/** "3+2", "½+0", "∞", "2 days". */
export function formatTimeControl(tc: TimeControl): string {
  if (tc === 'unlimited') return '∞';
  if ('days' in tc) return tc.days === 1 ? '1 day' : `${tc.days} days`;
  const m =
    tc.minutes === 0.25 ? '¼' : tc.minutes === 0.5 ? '½' : tc.minutes === 0.75 ? '¾' : String(tc.minutes);
  return `${m}+${tc.increment}`;
}

export type Speed = 'bullet' | 'blitz' | 'rapid' | 'classical' | 'correspondence' | 'unlimited';

/** The speed by estimated duration (minutes*60 + 40*increment seconds), as lichess counts it. */
export function speedOf(tc: TimeControl): Speed {
  if (tc === 'unlimited') return 'unlimited';
  if ('days' in tc) return 'correspondence';
  const seconds = tc.minutes * 60 + 40 * tc.increment;
  if (seconds < 180) return 'bullet';
  if (seconds < 480) return 'blitz';
  if (seconds < 1500) return 'rapid';
  return 'classical';
}

/** A custom time control from the form, or an error message. */
export function customTimeControl(
  minutes: number,
  increment: number,
): { ok: true; time: TimeControl } | { ok: false; error: string } {
  if (!Number.isFinite(minutes) || minutes < LIMITS.minMinutes || minutes > LIMITS.maxMinutes)
    return {
      ok: false,
      error: `Minutes per side: from ${LIMITS.minMinutes} to ${LIMITS.maxMinutes} (decimals such as 1.5 are fine).`,
    };
  // Whole seconds: 1.33 minutes is 80 s.
  minutes = Math.round(minutes * 60) / 60;
  if (!Number.isInteger(increment) || increment < 0 || increment > LIMITS.maxIncrement)
    return { ok: false, error: `Increment must be a whole number of seconds from 0 to ${LIMITS.maxIncrement}.` };
  return { ok: true, time: { minutes, increment } };
}

/** A clock readout: "4:59", "0:09.4" under ten seconds, "1:02:03" over an hour. */
export function formatClock(ms: number): string {
  const clamped = Math.max(0, ms);
  if (clamped < 10000) {
    const tenths = Math.floor(clamped / 100);
    return `0:0${Math.floor(tenths / 10)}.${tenths % 10}`;
  }
  const total = Math.floor(clamped / 1000);
  const h = Math.floor(total / 3600);
  const m = Math.floor((total % 3600) / 60);
  const s = total % 60;
  const ss = String(s).padStart(2, '0');
  return h > 0 ? `${h}:${String(m).padStart(2, '0')}:${ss}` : `${m}:${ss}`;
}

/** A daily game's time left: "2 days 5 hours", "5 hours 12 minutes", "12 minutes", then the
 * clock's own readout under a minute. */
export function formatDaily(ms: number): string {
  const clamped = Math.max(0, ms);
  if (clamped < 60000) return formatClock(clamped);
  const minutes = Math.floor(clamped / 60000);
  const days = Math.floor(minutes / 1440);
  const hours = Math.floor((minutes % 1440) / 60);
  const mins = minutes % 60;
  const unit = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;
  if (days > 0) return hours > 0 ? `${unit(days, 'day')} ${unit(hours, 'hour')}` : unit(days, 'day');
  if (hours > 0) return mins > 0 ? `${unit(hours, 'hour')} ${unit(mins, 'minute')}` : unit(hours, 'hour');
  return unit(mins, 'minute');
}
