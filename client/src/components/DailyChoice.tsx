/*
 * "Correspondence": a daily game with days per move (1, 2, 3, 5, 7 or 14, as on lichess), for
 * the lobby's forms. Off, the form's own clock applies; on, dailyTime() gives the time control.
 */
import { DAILY_DAYS } from '../lib/timeControl';
import type { TimeControl } from '../net/protocol';

/** The form's time control: the daily one when days are chosen, else the clock's. */
export function dailyTime(days: number | null, clock: TimeControl): TimeControl {
  return days === null ? clock : { days };
}

export function DailyChoice({
  id,
  days,
  onChange,
}: {
  id: string;
  /** Days per move, or null for a game with the form's clock. */
  days: number | null;
  onChange: (days: number | null) => void;
}) {
  return (
    <div className="daily-choice">
      <label className="check">
        <input type="checkbox" checked={days !== null} onChange={(e) => onChange(e.target.checked ? 2 : null)} />
        Correspondence (days per move)
      </label>
      {days !== null && (
        <>
          <label htmlFor={id}>Days per move</label>
          <select id={id} value={days} onChange={(e) => onChange(Number(e.target.value))}>
            {DAILY_DAYS.map((d) => (
              <option key={d} value={d}>
                {d === 1 ? '1 day' : `${d} days`}
              </option>
            ))}
          </select>
        </>
      )}
    </div>
  );
}
