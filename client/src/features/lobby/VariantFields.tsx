/*
 * How a custom game starts, in the lobby's forms: the variant, and for Chess960 the array's
 * number (empty: the server draws one) and for From Position the FEN, each where the form
 * allows it. useStartForm keeps the fields; its read() gives the fields to send or the reason
 * they cannot be (the server checks the FEN again: BAD_POSITION, POSITION_OVER).
 */
import { useState } from 'react';
import type { Variant } from '../../net/protocol';
import { readStart, VARIANTS } from '../../lib/variant';

export function useStartForm() {
  const [variant, setVariant] = useState<Variant>('standard');
  const [position, setPosition] = useState('');
  const [fen, setFen] = useState('');
  return { variant, setVariant, position, setPosition, fen, setFen, read: () => readStart(variant, position, fen) };
}

export function VariantFields({
  idPrefix,
  form,
  withPosition = false,
  withFen = false,
  variants = VARIANTS,
}: {
  idPrefix: string;
  form: ReturnType<typeof useStartForm>;
  /** Offer the Chess960 array's number. */
  withPosition?: boolean;
  /** Offer From Position (with its FEN). */
  withFen?: boolean;
  variants?: typeof VARIANTS;
}) {
  const offered = variants.filter((v) => withFen || v.key !== 'fromPosition');
  return (
    <div className="variant-fields stack">
      <label htmlFor={`${idPrefix}-variant`}>Variant</label>
      <select id={`${idPrefix}-variant`} value={form.variant} onChange={(e) => form.setVariant(e.target.value as Variant)}>
        {offered.map((v) => (
          <option key={v.key} value={v.key}>
            {v.name}
          </option>
        ))}
      </select>
      {withPosition && form.variant === 'chess960' && (
        <>
          <label htmlFor={`${idPrefix}-position`}>Chess960 position (0-959, empty for a random one)</label>
          <input
            id={`${idPrefix}-position`}
            type="text"
            inputMode="numeric"
            pattern="[0-9]*"
            value={form.position}
            onChange={(e) => form.setPosition(e.target.value)}
            autoComplete="off"
          />
        </>
      )}
      {withFen && form.variant === 'fromPosition' && (
        <>
          <label htmlFor={`${idPrefix}-fen`}>Starting position (FEN)</label>
          <input
            id={`${idPrefix}-fen`}
            type="text"
            value={form.fen}
            onChange={(e) => form.setFen(e.target.value)}
            autoComplete="off"
            spellCheck={false}
          />
        </>
      )}
    </div>
  );
}
