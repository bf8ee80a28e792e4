/*
 * On a player's page (not one's own): report the player (a kind and a few words), block or
 * unblock them, and for moderators the actions on the player with a note, and the log about
 * them. Each form says what happened, or the server's reason, next to it.
 */
import { useCallback, useEffect, useId, useState, type FormEvent } from 'react';
import { useAppState } from '../../hooks/useStore';
import type { ModAction, ModLogEntry, ReportKind } from '../../net/protocol';
import { useModeration } from './hooks';

const KINDS: { kind: ReportKind; label: string }[] = [
  { kind: 'abuse', label: 'Abuse or insults' },
  { kind: 'cheat', label: 'Cheating (engine help)' },
  { kind: 'spam', label: 'Spam' },
  { kind: 'other', label: 'Something else' },
];

const ACTIONS: { action: ModAction; label: string; accountOnly?: boolean }[] = [
  { action: 'mute', label: 'Mute' },
  { action: 'unmute', label: 'Unmute' },
  { action: 'ban', label: 'Ban' },
  { action: 'unban', label: 'Unban' },
  { action: 'close', label: 'Close account', accountOnly: true },
  { action: 'reopen', label: 'Reopen account', accountOnly: true },
];

export interface ModeratedPlayer {
  id: string;
  name: string;
  registered?: boolean;
}

export function PlayerModeration({ player }: { player: ModeratedPlayer }) {
  const admin = useAppState((s) => s.me?.admin === true);
  return (
    <>
      <section className="panel" aria-labelledby="report-title">
        <h2 id="report-title">Report or block</h2>
        <ReportForm player={player} />
        <BlockSwitch player={player} />
      </section>
      {admin && <ModeratorPanel player={player} />}
    </>
  );
}

function ReportForm({ player }: { player: ModeratedPlayer }) {
  const moderation = useModeration();
  const online = useAppState((s) => s.conn.status === 'online');
  const id = useId();
  const [kind, setKind] = useState<ReportKind>('abuse');
  const [text, setText] = useState('');
  const [status, setStatus] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const submit = (e: FormEvent) => {
    e.preventDefault();
    setStatus(null);
    setError(null);
    moderation.report(player.id, kind, text).then(
      () => (setStatus(`Reported ${player.name}: the moderators will look at it.`), setText('')),
      (err: Error) => setError(err.message),
    );
  };
  return (
    <form onSubmit={submit} className="stack" aria-label={`Report ${player.name}`}>
      <label htmlFor={`${id}-kind`}>Reason</label>
      <select id={`${id}-kind`} value={kind} onChange={(e) => setKind(e.target.value as ReportKind)}>
        {KINDS.map((k) => (
          <option key={k.kind} value={k.kind}>
            {k.label}
          </option>
        ))}
      </select>
      <label htmlFor={`${id}-text`}>What happened (optional)</label>
      <textarea id={`${id}-text`} value={text} maxLength={280} rows={2} onChange={(e) => setText(e.target.value)} />
      {status && <p role="status">{status}</p>}
      {error && (
        <p className="form-error" role="alert">
          {error}
        </p>
      )}
      <button type="submit" disabled={!online}>
        Report {player.name}
      </button>
    </form>
  );
}

function BlockSwitch({ player }: { player: ModeratedPlayer }) {
  const moderation = useModeration();
  const online = useAppState((s) => s.conn.status === 'online');
  const [blocked, setBlocked] = useState<boolean | null>(null);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    if (!online) return;
    let live = true;
    moderation.blocks().then(
      (list) => live && setBlocked(list.some((p) => p.id === player.id)),
      (err: Error) => live && setError(err.message),
    );
    return () => {
      live = false;
    };
  }, [moderation, online, player.id]);
  const toggle = () => {
    setError(null);
    moderation.setBlocked(player.id, !blocked).then(setBlocked, (err: Error) => setError(err.message));
  };
  return (
    <div className="stack">
      <p className="hint">
        {blocked
          ? `You block ${player.name}: no challenges from them, no games with them from the lobby, and their chat is hidden from you.`
          : `Blocking ${player.name} stops their challenges, games with them from the lobby, and hides their chat from you.`}
      </p>
      {error && (
        <p className="form-error" role="alert">
          {error}
        </p>
      )}
      <button type="button" onClick={toggle} disabled={!online || blocked === null} aria-pressed={blocked === true}>
        {blocked ? `Unblock ${player.name}` : `Block ${player.name}`}
      </button>
    </div>
  );
}

function ModeratorPanel({ player }: { player: ModeratedPlayer }) {
  const moderation = useModeration();
  const online = useAppState((s) => s.conn.status === 'online');
  const id = useId();
  const [note, setNote] = useState('');
  const [status, setStatus] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [log, setLog] = useState<ModLogEntry[] | null>(null);
  const refresh = useCallback(
    () => moderation.log(player.id).then(setLog, (err: Error) => setError(err.message)),
    [moderation, player.id],
  );
  useEffect(() => {
    if (online) void refresh();
  }, [online, refresh]);
  const act = (action: ModAction, label: string) => {
    setStatus(null);
    setError(null);
    if (!note.trim()) {
      setError('Write a note for the log first.');
      return;
    }
    moderation.act(player.id, action, note.trim()).then(
      () => (setStatus(`${label}: done.`), setNote(''), void refresh()),
      (err: Error) => setError(err.message),
    );
  };
  return (
    <section className="panel" aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`}>Moderate {player.name}</h2>
      <label htmlFor={`${id}-note`}>Note for the log (required)</label>
      <input id={`${id}-note`} value={note} maxLength={280} onChange={(e) => setNote(e.target.value)} />
      <div className="button-row">
        {ACTIONS.filter((a) => !a.accountOnly || player.registered).map((a) => (
          <button key={a.action} type="button" disabled={!online} onClick={() => act(a.action, a.label)}>
            {a.label}
          </button>
        ))}
      </div>
      {status && <p role="status">{status}</p>}
      {error && (
        <p className="form-error" role="alert">
          {error}
        </p>
      )}
      <h3>Log</h3>
      <ModLog entries={log} />
    </section>
  );
}

/** Log entries, newest first. */
export function ModLog({ entries }: { entries: ModLogEntry[] | null }) {
  if (!entries) return <p className="hint">Loading…</p>;
  if (entries.length === 0) return <p className="hint">Nothing logged.</p>;
  return (
    <ul className="mod-log">
      {entries.map((e) => (
        <li key={e.id}>
          <time dateTime={new Date(e.at).toISOString()}>{new Date(e.at).toLocaleString()}</time>{' '}
          <strong>{e.moderator?.name ?? 'the server'}</strong> {e.action}
          {e.player && ` ${e.player.name}`}
          {e.report !== undefined && ` (report ${e.report})`}
          {e.note && `: ${e.note}`}
        </li>
      ))}
    </ul>
  );
}
