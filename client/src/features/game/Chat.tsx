/*
 * A game's chat: the players' room for the two players, the spectators' room for everyone else
 * (the server keeps them apart). Lines are at most 140 characters. Players have lichess's quick
 * messages; anyone may switch the chat off (kept in this browser).
 */
import { useEffect, useId, useRef, useState, type FormEvent } from 'react';
import { BotBadge } from '../../components/BotBadge';
import { useStoredFlag } from '../../hooks/useStoredFlag';
import { KEYS } from '../../lib/storage';
import type { ChatLine } from '../../net/protocol';

/** The players' quick messages, as lichess offers them. */
const PRESETS = ['Hello', 'Good luck', 'Have fun!', 'You too!', 'Good game', 'Well played', 'Thank you'];

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
  const [off, setOff] = useStoredFlag(KEYS.chatOff);
  const id = useId();
  const listRef = useRef<HTMLOListElement>(null);
  const shown = off ? [] : lines.filter((l) => l.room === room);
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
  const title = room === 'players' ? 'Chat' : 'Spectator chat';
  const toggle = (
    <label className="check chat-switch">
      <input type="checkbox" checked={!off} onChange={(e) => setOff(!e.target.checked)} />
      Show the chat
    </label>
  );
  if (off)
    return (
      <section className="chat" aria-labelledby={`${id}-title`}>
        <h2 id={`${id}-title`}>{title}</h2>
        {toggle}
      </section>
    );
  return (
    <section className="chat" aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`}>{title}</h2>
      {toggle}
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
      {room === 'players' && (
        <div className="chat-presets" role="group" aria-label="Quick messages">
          {PRESETS.map((p) => (
            <button key={p} type="button" disabled={!enabled} onClick={() => void onSend(p)}>
              {p}
            </button>
          ))}
        </div>
      )}
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
