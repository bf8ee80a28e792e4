/*
 * The player's identity. Everyone plays as a guest kept in this browser (a token the server
 * gave); the page shows it, the games this browser knows of, and lets the player start over as
 * a new guest with a name of their choice. Registration, login, ratings and game history need
 * the server's accounts, which it does not offer yet: the page says so instead of pretending.
 */
import { useId, useState, type FormEvent } from 'react';
import { colorOf } from '../../app/games';
import { Link } from '../../app/router';
import { useAppState, useStoreApi } from '../../hooks/useStore';
import { describeOutcome } from '../../lib/outcome';
import { formatTimeControl } from '../../lib/timeControl';

const NAME_RULE = /^[A-Za-z0-9_-]{2,20}$/;

export function AccountPage() {
  const store = useStoreApi();
  const me = useAppState((s) => s.me);
  const games = useAppState((s) => s.games);
  const [name, setName] = useState('');
  const [error, setError] = useState<string | null>(null);
  const id = useId();
  const mine = Object.values(games).filter((g) => colorOf(g, me?.id) !== null);

  const submit = (e: FormEvent) => {
    e.preventDefault();
    const n = name.trim();
    if (n && !NAME_RULE.test(n)) {
      setError('A name is 2 to 20 letters, digits, "_" or "-".');
      return;
    }
    setError(null);
    store.newGuest(n || null);
    setName('');
  };

  return (
    <div className="account">
      <section className="panel" aria-labelledby="who-title">
        <h1 id="who-title">{me ? me.name : 'Connecting…'}</h1>
        {me && (
          <p>
            You play as a guest (id <code>{me.id}</code>). This browser keeps your guest identity, so
            you get your games back after a reload or a lost connection.
          </p>
        )}
        <form onSubmit={submit} className="stack">
          <label htmlFor={id}>Start over as a new guest, named</label>
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
                    {g.white.name} vs {g.black.name}
                  </Link>{' '}
                  · {formatTimeControl(g.time)} · {o ? `${o.score} ${o.title}` : 'in progress'}
                </li>
              );
            })}
          </ul>
        )}
      </section>
      <section className="panel" aria-labelledby="accounts-title">
        <h2 id="accounts-title">Accounts</h2>
        <p>
          Registering, logging in, ratings and the history of past games are not available on this
          server yet. They will appear here when the server supports them.
        </p>
      </section>
    </div>
  );
}
