/*
 * A time control from the lobby's presets (and "No clock" when allowed), as a select whose
 * value is the preset's name ("3+2") or "unlimited"; presetTime() turns it into a time control.
 */
import { formatTimeControl, PRESETS } from '../lib/timeControl';
import type { TimeControl } from '../net/protocol';

/** The time control a PresetSelect value names; a name that is no preset means no clock. */
export function presetTime(value: string): TimeControl {
  const p = PRESETS.find((x) => formatTimeControl(x) === value);
  return p ? { minutes: p.minutes, increment: p.increment } : 'unlimited';
}

export function PresetSelect({
  id,
  value,
  onChange,
  unlimited = true,
}: {
  id: string;
  value: string;
  onChange: (value: string) => void;
  /** Whether "No clock" is offered. */
  unlimited?: boolean;
}) {
  return (
    <select id={id} value={value} onChange={(e) => onChange(e.target.value)}>
      {PRESETS.map((p) => (
        <option key={formatTimeControl(p)}>{formatTimeControl(p)}</option>
      ))}
      {unlimited && <option value="unlimited">No clock</option>}
    </select>
  );
}
