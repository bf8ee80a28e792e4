/*
 * A logged-in account's own settings on the account page: change the password (the server logs
 * out every other session), the sessions with a button to log each other one out and one for
 * all of them, its personal API access tokens (ApiTokens.tsx), and deleting the account with its password (its games stay, anonymised; this
 * browser continues as a new guest). The server's refusals are shown in words next to each form.
 */
import { useCallback, useEffect, useId, useState, type FormEvent } from 'react';
import { ConfirmButton } from '../../components/ConfirmButton';
import { useAppState } from '../../hooks/useStore';
import type { SessionInfo } from '../../net/protocol';
import { ApiTokens } from './ApiTokens';
import { useAccount } from './hooks';

export function AccountSettings() {
  return (
    <div className="account-forms">
      <PasswordForm />
      <Sessions />
      <ApiTokens />
      <DeleteAccount />
    </div>
  );
}

/** The server's refusal in words, next to the form that caused it. */
function FormError({ error }: { error: string | null }) {
  if (!error) return null;
  return (
    <p className="form-error" role="alert">
      {error}
    </p>
  );
}

function PasswordForm() {
  const account = useAccount();
  const online = useAppState((s) => s.conn.status === 'online');
  const [current, setCurrent] = useState('');
  const [next, setNext] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [done, setDone] = useState(false);
  const [busy, setBusy] = useState(false);
  const id = useId();
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setBusy(true);
    const failed = await account.changePassword(current, next);
    setBusy(false);
    setError(failed);
    setDone(!failed);
    if (!failed) {
      setCurrent('');
      setNext('');
    }
  };
  return (
    <section className="panel" aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`}>Change password</h2>
      <form onSubmit={submit} className="stack">
        <label htmlFor={`${id}-current`}>Current password</label>
        <input
          id={`${id}-current`}
          type="password"
          value={current}
          autoComplete="current-password"
          maxLength={128}
          required
          onChange={(e) => setCurrent(e.target.value)}
        />
        <label htmlFor={`${id}-new`}>New password</label>
        <input
          id={`${id}-new`}
          type="password"
          value={next}
          autoComplete="new-password"
          minLength={8}
          maxLength={128}
          required
          onChange={(e) => setNext(e.target.value)}
        />
        <FormError error={error} />
        {done && <p className="hint">Changed. Your other sessions are logged out.</p>}
        <button type="submit" className="primary" disabled={busy || !online}>
          Change password
        </button>
      </form>
    </section>
  );
}

function Sessions() {
  const account = useAccount();
  const online = useAppState((s) => s.conn.status === 'online');
  const [sessions, setSessions] = useState<SessionInfo[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  const id = useId();
  const reload = useCallback(() => {
    account.sessions().then(
      (list) => (setSessions(list), setError(null)),
      (err: Error) => setError(err.message),
    );
  }, [account]);
  useEffect(() => {
    if (online) reload();
  }, [online, reload]);
  const act = async (action: Promise<string | null>) => {
    const failed = await action;
    setError(failed);
    reload();
  };
  const others = sessions?.filter((s) => !s.current) ?? [];
  return (
    <section className="panel" aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`}>Sessions</h2>
      <p className="hint">
        Where this account is logged in: each login, and this browser. Revoking a session logs it out at once.
      </p>
      {sessions === null && !error && <p className="hint">Loading…</p>}
      {sessions && (
        <ul className="plain-list sessions" aria-label="Sessions">
          {sessions.map((s) => (
            <li key={s.id} aria-label={`Session ${s.id}`}>
              <span>
                <code>{s.id}</code> {s.current && <strong>this browser</strong>}
                <br />
                <span className="hint">
                  since {new Date(s.created_at).toLocaleString()}
                  {s.last_seen_at !== null && <>, last seen {new Date(s.last_seen_at).toLocaleString()}</>}
                </span>
              </span>
              {!s.current && (
                <button type="button" disabled={!online} onClick={() => act(account.revokeSession(s.id))}>
                  Revoke
                </button>
              )}
            </li>
          ))}
        </ul>
      )}
      <FormError error={error} />
      <div className="button-row">
        <button type="button" disabled={!online || others.length === 0} onClick={() => act(account.revokeOtherSessions())}>
          Revoke all other sessions
        </button>
      </div>
    </section>
  );
}

function DeleteAccount() {
  const account = useAccount();
  const online = useAppState((s) => s.conn.status === 'online');
  const [password, setPassword] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const id = useId();
  const remove = async () => {
    setBusy(true);
    const failed = await account.deleteAccount(password);
    setBusy(false);
    setError(failed);
    if (!failed) setPassword('');
  };
  return (
    <section className="panel" aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`}>Delete account</h2>
      <p className="hint">
        Your games stay in the archive without your name; your ratings, sessions and bots go. Nobody can take your
        username afterwards. This cannot be undone.
      </p>
      <form onSubmit={(e) => e.preventDefault()} className="stack">
        <label htmlFor={`${id}-password`}>Password</label>
        <input
          id={`${id}-password`}
          type="password"
          value={password}
          autoComplete="current-password"
          maxLength={128}
          onChange={(e) => setPassword(e.target.value)}
        />
        <FormError error={error} />
        <ConfirmButton
          confirmLabel="Yes, delete my account"
          onConfirm={remove}
          disabled={busy || !online || !password}
          className="danger"
        >
          Delete my account
        </ConfirmButton>
      </form>
    </section>
  );
}
