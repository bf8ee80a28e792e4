/*
 * Keyboard move entry: type a move in SAN (Nf3, exd5, O-O, e8=Q) or UCI (g1f3) and press Enter.
 * The move is read with chess.js against the position shown; the server decides.
 */
import { useId, useState, type FormEvent } from 'react';
import { parseTypedMove, type LocalMove } from '../../lib/chess';

export function MoveInput({
  fen,
  enabled,
  onMove,
}: {
  fen: string;
  enabled: boolean;
  onMove: (move: LocalMove) => void;
}) {
  const [text, setText] = useState('');
  const [error, setError] = useState<string | null>(null);
  const id = useId();
  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (!enabled || !text.trim()) return;
    const move = parseTypedMove(fen, text);
    if (!move) {
      setError(`“${text.trim()}” is not a legal move here.`);
      return;
    }
    setError(null);
    setText('');
    onMove(move);
  };
  return (
    <form className="move-input" onSubmit={submit}>
      <label htmlFor={id}>Type a move</label>
      <input
        id={id}
        value={text}
        disabled={!enabled}
        autoComplete="off"
        autoCapitalize="off"
        spellCheck={false}
        placeholder={enabled ? 'e.g. Nf3, O-O, e8=Q (any case)' : 'Not your turn'}
        aria-describedby={error ? `${id}-error` : undefined}
        onChange={(e) => {
          setText(e.target.value);
          setError(null);
        }}
      />
      {error && (
        <p id={`${id}-error`} className="form-error" role="alert">
          {error}
        </p>
      )}
    </form>
  );
}
