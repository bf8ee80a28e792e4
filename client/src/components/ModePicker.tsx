/*
 * Rated / casual, as a radio group, for players with an account. A guest's games are always
 * casual (docs/protocol.md), so a guest sees that said instead of a choice.
 */
import type { Mode } from '../lib/mode';

export function ModePicker({
  value,
  onChange,
  name,
  registered,
}: {
  value: Mode;
  onChange: (m: Mode) => void;
  name: string;
  registered: boolean | undefined;
}) {
  if (!registered) {
    return <p className="hint mode-hint">Casual game: rated games need an account.</p>;
  }
  return (
    <fieldset className="segmented">
      <legend>Mode</legend>
      {(['rated', 'casual'] as const).map((m) => (
        <label key={m} className={value === m ? 'selected' : undefined}>
          <input type="radio" name={name} value={m} checked={value === m} onChange={() => onChange(m)} />
          {m === 'rated' ? 'Rated' : 'Casual'}
        </label>
      ))}
    </fieldset>
  );
}
