/*
 * A game's chat: the players' room for the two players, the spectators' room for everyone else
 * (the server keeps them apart). Lines are at most 140 characters.
 */
import { useEffect, useId, useRef, useState, type FormEvent } from 'react';
import { BotBadge } from '../../components/BotBadge';
import type { ChatLine } from '../../net/protocol';

export function Chat({
  lines,
  room,
  onSend,
  enabled,
  botIds = [],
}: {
  lines: ChatLine[];
  room: 'players' | 'spectators';
  onSend: (text: string) => Promise<boolean>;
  enabled: boolean;
  /** Players known to be bots (the game's seats): chat lines name their author without it. */
  botIds?: readonly string[];
}) {
  const [text, setText] = useState('');
  const id = useId();
  const listRef = useRef<HTMLOListElement>(null);
  const shown = lines.filter((l) => l.room === room);
  useEffect(() => {
    const el = listRef.current;
    if (el) el.scrollTop = el.scrollHeight;
  }, [shown.length]);
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    const t = text.trim();
    if (!t) return;
    if (await onSend(t)) setText('');
  };
  return (
    <section className="chat" aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`}>{room === 'players' ? 'Chat' : 'Spectator chat'}</h2>
      <ol className="chat-lines" ref={listRef} aria-live="polite" aria-label="Messages">
        {shown.map((l, i) => (
          <li key={`${l.time}-${i}`}>
            <span className="chat-from">
              {l.from.name}
              <BotBadge bot={l.from.bot || botIds.includes(l.from.id)} />
            </span>{' '}
            <span className="chat-text">{l.text}</span>
          </li>
        ))}
        {shown.length === 0 && <li className="hint">No messages.</li>}
      </ol>
      <form onSubmit={submit} className="chat-form">
        <label htmlFor={id} className="visually-hidden">
          Write a message
        </label>
        <input
          id={id}
          value={text}
          maxLength={140}
          disabled={!enabled}
          placeholder="Say something nice"
          autoComplete="off"
          onChange={(e) => setText(e.target.value)}
        />
        <button type="submit" disabled={!enabled || !text.trim()}>
          Send
        </button>
      </form>
    </section>
  );
}
