/*
 * Keyboard move entry: type a move in SAN (Nf3, exd5, O-O, e8=Q) or UCI (g1f3) and press Enter.
 * The move is read with chess.js against the position shown; the server decides.
 */
import { useId, useState, type FormEvent } from 'react';
import { parseTypedMove, type LocalMove, type PromotionPiece } from '../../lib/chess';
import { moveFromDests } from '../../lib/dests';
import type { Dests } from '../../net/protocol';

/**
 * A typed move: SAN or UCI as chess.js reads it, legal when the server's dests have it; else
 * UCI (e1h1, e7e8q) against the dests, for what chess.js cannot read (Chess960's castling,
 * Three-check's FENs). Without dests (none known yet), nothing.
 */
export function readTypedMove(fen: string, dests: Dests | null, text: string): LocalMove | null {
  if (!dests) return null;
  const parsed = parseTypedMove(fen, text);
  if (parsed && dests[parsed.from]?.includes(parsed.to)) return parsed;
  const m = text.trim().toLowerCase().match(/^([a-h][1-8])([a-h][1-8])([qrbn])?$/);
  return m ? moveFromDests(dests, fen, m[1], m[2], m[3] as PromotionPiece | undefined) : null;
}

export function MoveInput({
  fen,
  dests,
  enabled,
  onMove,
}: {
  fen: string;
  /** The server's legal destinations: what chess.js cannot read (Chess960, Three-check) is
   * taken in UCI against them. */
  dests: Dests | null;
  enabled: boolean;
  onMove: (move: LocalMove) => void;
}) {
  const [text, setText] = useState('');
  const [error, setError] = useState<string | null>(null);
  const id = useId();
  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (!enabled || !text.trim()) return;
    const move = readTypedMove(fen, dests, text);
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
