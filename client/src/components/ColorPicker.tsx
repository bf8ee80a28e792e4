/*
 * White / random / black, as a radio group.
 */
import type { ColorChoice } from '../net/protocol';

const CHOICES: { value: ColorChoice; label: string; icon: string }[] = [
  { value: 'white', label: 'White', icon: '♔' },
  { value: 'random', label: 'Random', icon: '⚄' },
  { value: 'black', label: 'Black', icon: '♚' },
];

export function ColorPicker({
  value,
  onChange,
  name,
}: {
  value: ColorChoice;
  onChange: (c: ColorChoice) => void;
  name: string;
}) {
  return (
    <fieldset className="segmented">
      <legend>Your colour</legend>
      {CHOICES.map((c) => (
        <label key={c.value} className={value === c.value ? 'selected' : undefined}>
          <input
            type="radio"
            name={name}
            value={c.value}
            checked={value === c.value}
            onChange={() => onChange(c.value)}
          />
          <span aria-hidden="true">{c.icon}</span> {c.label}
        </label>
      ))}
    </fieldset>
  );
}
