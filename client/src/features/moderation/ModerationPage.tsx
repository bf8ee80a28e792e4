/*
 * The moderators' page (/mod): the open reports, newest first, each with the reported player's
 * page (where the actions are) and a form to close it with a note; then the reports closed
 * lately, and the moderation log. Others are told the page is for moderators.
 */
import { useCallback, useEffect, useId, useState, type FormEvent } from 'react';
import { Link } from '../../app/router';
import { useAppState } from '../../hooks/useStore';
import type { ModLogEntry, ModReport } from '../../net/protocol';
import { useModeration } from './hooks';
import { ModLog } from './PlayerModeration';

export function ModerationPage() {
  const admin = useAppState((s) => s.me?.admin === true);
  if (!admin) {
    return (
      <section className="panel narrow">
        <h1>Moderation</h1>
        <p>This page is for the site's moderators.</p>
      </section>
    );
  }
  return <ModerationDesk />;
}

function ModerationDesk() {
  const moderation = useModeration();
  const online = useAppState((s) => s.conn.status === 'online');
  const [reports, setReports] = useState<ModReport[] | null>(null);
  const [log, setLog] = useState<ModLogEntry[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  const refresh = useCallback(() => {
    moderation.reports().then(setReports, (err: Error) => setError(err.message));
    moderation.log().then(setLog, (err: Error) => setError(err.message));
  }, [moderation]);
  useEffect(() => {
    if (online) refresh();
  }, [online, refresh]);
  const open = reports?.filter((r) => r.closed_at === undefined) ?? [];
  const closed = reports?.filter((r) => r.closed_at !== undefined) ?? [];
  return (
    <div className="moderation">
      <section className="panel" aria-labelledby="reports-title">
        <h1 id="reports-title">Open reports</h1>
        {error && (
          <p className="form-error" role="alert">
            {error}
          </p>
        )}
        {!reports && <p className="hint">Loading…</p>}
        {reports && open.length === 0 && <p className="hint">No open reports.</p>}
        <ul className="reports">
          {open.map((r) => (
            <li key={r.id}>
              <ReportItem report={r} />
              <ResolveForm report={r} onDone={refresh} />
            </li>
          ))}
        </ul>
      </section>
      <section className="panel" aria-labelledby="closed-title">
        <h2 id="closed-title">Closed lately</h2>
        {closed.length === 0 ? (
          <p className="hint">None.</p>
        ) : (
          <ul className="reports">
            {closed.map((r) => (
              <li key={r.id}>
                <ReportItem report={r} />
                <p className="hint">
                  Closed by {r.closed_by?.name ?? 'unknown'}: {r.note}
                </p>
              </li>
            ))}
          </ul>
        )}
      </section>
      <section className="panel" aria-labelledby="log-title">
        <h2 id="log-title">Moderation log</h2>
        <ModLog entries={log} />
      </section>
    </div>
  );
}

function ReportItem({ report }: { report: ModReport }) {
  return (
    <p>
      <strong>
        <Link to={`/player/${report.player.id}`}>{report.player.name}</Link>
      </strong>{' '}
      reported for <em>{report.kind}</em> by <Link to={`/player/${report.reporter.id}`}>{report.reporter.name}</Link>,{' '}
      {new Date(report.created_at).toLocaleString()}
      {report.game && (
        <>
          {' '}
          in <Link to={`/game/${report.game}`}>game {report.game}</Link>
        </>
      )}
      {report.text && `: “${report.text}”`}
    </p>
  );
}

function ResolveForm({ report, onDone }: { report: ModReport; onDone: () => void }) {
  const moderation = useModeration();
  const id = useId();
  const [note, setNote] = useState('');
  const [error, setError] = useState<string | null>(null);
  const submit = (e: FormEvent) => {
    e.preventDefault();
    setError(null);
    moderation.resolve(report.id, note.trim()).then(onDone, (err: Error) => setError(err.message));
  };
  return (
    <form onSubmit={submit} className="inline-form" aria-label={`Close report ${report.id}`}>
      <label htmlFor={`${id}-note`}>Note</label>
      <input id={`${id}-note`} value={note} maxLength={280} required onChange={(e) => setNote(e.target.value)} />
      <button type="submit">Close report</button>
      {error && (
        <p className="form-error" role="alert">
          {error}
        </p>
      )}
    </form>
  );
}
