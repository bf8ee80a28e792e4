/*
 * The player's identity. Everyone starts as a guest kept in this browser (a token the server
 * gave). On a server with accounts, a guest may register (the guest becomes the account, games
 * and all) or log in to an existing account, and log out again; the page shows the server's
 * answer in words when it refuses, including when it has no accounts at all. An account also
 * gets its settings (AccountSettings: password, sessions, deletion). It also lists the games this
 * browser knows of and lets the player start over as a new guest.
 */
import { useId, useState, type FormEvent } from 'react';
import { Link } from '../../app/router';
import { BotBadge } from '../../components/BotBadge';
import { useAppState } from '../../hooks/useStore';
import { describeOutcome } from '../../lib/outcome';
import { formatTimeControl } from '../../lib/timeControl';
import { colorOf, useGameList } from '../game';
import { AccountSettings } from './AccountSettings';
import { useAccount } from './hooks';

const NAME_RULE = /^[A-Za-z0-9_-]{2,20}$/;

export function AccountPage() {
  const me = useAppState((s) => s.me);
  return (
    <div className="account">
      <section className="panel" aria-labelledby="who-title">
        <h1 id="who-title">{me ? me.name : 'Connecting…'}</h1>
        {me &&
          (me.registered ? (
            <p>
              You are logged in. <Link to={`/player/${me.id}`}>Your profile</Link>
            </p>
          ) : (
            <p>
              You play as a guest (id <code>{me.id}</code>). This browser keeps your guest identity,
              so you get your games back after a reload or a lost connection.{' '}
              <Link to={`/player/${me.id}`}>Your profile</Link>
            </p>
          ))}
        {me?.registered && <LogoutButton />}
      </section>
      {me && !me.registered && (
        <div className="account-forms">
          <CredentialsForm
            kind="register"
            title="Create an account"
            hint="Keeps this guest's games and gives you ratings. Your username becomes your name."
            submitLabel="Register"
          />
          <CredentialsForm kind="login" title="Log in" hint="Continue as your account in this browser." submitLabel="Log in" />
        </div>
      )}
      {me?.registered && <AccountSettings />}
      <BrowserGames />
      {!me?.registered && <NewGuest />}
    </div>
  );
}

function CredentialsForm({
  kind,
  title,
  hint,
  submitLabel,
}: {
  kind: 'register' | 'login';
  title: string;
  hint: string;
  submitLabel: string;
}) {
  const account = useAccount();
  const online = useAppState((s) => s.conn.status === 'online');
  const [username, setUsername] = useState('');
  const [password, setPassword] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const id = useId();
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setBusy(true);
    const failed =
      kind === 'register' ? await account.register(username.trim(), password) : await account.login(username.trim(), password);
    setBusy(false);
    setError(failed);
    if (!failed) setPassword('');
  };
  return (
    <section className="panel" aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`}>{title}</h2>
      <p className="hint">{hint}</p>
      <form onSubmit={submit} className="stack">
        <label htmlFor={`${id}-user`}>Username</label>
        <input
          id={`${id}-user`}
          value={username}
          autoComplete="username"
          autoCapitalize="off"
          spellCheck={false}
          maxLength={20}
          required
          onChange={(e) => setUsername(e.target.value)}
        />
        <label htmlFor={`${id}-password`}>Password</label>
        <input
          id={`${id}-password`}
          type="password"
          value={password}
          autoComplete={kind === 'register' ? 'new-password' : 'current-password'}
          minLength={kind === 'register' ? 8 : undefined}
          maxLength={128}
          required
          onChange={(e) => setPassword(e.target.value)}
        />
        {error && (
          <p className="form-error" role="alert">
            {error}
          </p>
        )}
        <button type="submit" className="primary" disabled={busy || !online}>
          {submitLabel}
        </button>
      </form>
    </section>
  );
}

function LogoutButton() {
  const account = useAccount();
  const [error, setError] = useState<string | null>(null);
  return (
    <div className="button-row">
      <button type="button" onClick={async () => setError(await account.logout())}>
        Log out
      </button>
      {error && (
        <p className="form-error" role="alert">
          {error}
        </p>
      )}
    </div>
  );
}

function BrowserGames() {
  const me = useAppState((s) => s.me);
  const games = useGameList();
  const mine = Object.values(games).filter((g) => colorOf(g, me?.id) !== null);
  return (
    <section className="panel" aria-labelledby="games-title">
      <h2 id="games-title">Your games in this browser</h2>
      {mine.length === 0 ? (
        <p className="hint">None yet.</p>
      ) : (
        <ul className="plain-list">
          {mine.map((g) => {
            const o = g.outcome ? describeOutcome(g.outcome.result, g.outcome.reason, g.outcome.winner) : null;
            return (
              <li key={g.id}>
                <Link to={`/game/${g.id}`}>
                  {g.white.name}
                  <BotBadge bot={g.white.bot} /> vs {g.black.name}
                  <BotBadge bot={g.black.bot} />
                </Link>{' '}
                · {formatTimeControl(g.time)} · {o ? `${o.score} ${o.title}` : 'in progress'}
              </li>
            );
          })}
        </ul>
      )}
    </section>
  );
}

function NewGuest() {
  const account = useAccount();
  const [name, setName] = useState('');
  const [error, setError] = useState<string | null>(null);
  const id = useId();
  const submit = (e: FormEvent) => {
    e.preventDefault();
    const n = name.trim();
    if (n && !NAME_RULE.test(n)) {
      setError('A name is 2 to 20 letters, digits, "_" or "-".');
      return;
    }
    setError(null);
    account.newGuest(n || null);
    setName('');
  };
  return (
    <section className="panel" aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`}>Start over</h2>
      <form onSubmit={submit} className="stack">
        <label htmlFor={id}>New guest identity, named</label>
        <input
          id={id}
          value={name}
          maxLength={20}
          placeholder="a random guest name"
          autoComplete="nickname"
          onChange={(e) => setName(e.target.value)}
        />
        {error && (
          <p className="form-error" role="alert">
            {error}
          </p>
        )}
        <button type="submit">New guest identity</button>
        <p className="hint">Games in progress stay with your current identity.</p>
      </form>
    </section>
  );
}
