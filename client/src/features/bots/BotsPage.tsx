/*
 * "My bots" (/bots): an account's bot accounts and their tokens (docs/bots.md). The list of its
 * bots with how many tokens of each work (bots_list, read again after every change); create a
 * bot, give one a new token, revoke all of a bot's tokens (the server revokes them together).
 * A token is shown once, in this page's memory only (the server keeps its hash): with a copy
 * button and a plain warning, until the player hides it or leaves the page. Guests and bots are
 * told why they cannot have bots.
 */
import { useCallback, useEffect, useState, type FormEvent } from 'react';
import { Link } from '../../app/router';
import { BotBadge } from '../../components/BotBadge';
import { ConfirmButton } from '../../components/ConfirmButton';
import { TokenOnce } from '../../components/TokenOnce';
import { useAppState } from '../../hooks/useStore';
import type { OwnedBot } from '../../net/protocol';
import { useBots } from './hooks';

interface ShownToken {
  bot: string;
  token: string;
}

export function BotsPage() {
  const me = useAppState((s) => s.me);
  if (!me) {
    return (
      <section className="panel narrow">
        <h1>My bots</h1>
        <p className="hint">Connecting…</p>
      </section>
    );
  }
  if (!me.registered || me.bot) {
    return (
      <section className="panel narrow">
        <h1>My bots</h1>
        <p>
          {me.bot
            ? 'A bot cannot own bots.'
            : 'Bots belong to accounts. Create an account (or log in) to create bots and their tokens.'}
        </p>
        <p>
          <Link to="/account">Account</Link>
        </p>
      </section>
    );
  }
  return <BotsManager />;
}

function BotsManager() {
  const bots = useBots();
  const [shown, setShown] = useState<ShownToken | null>(null);
  const [status, setStatus] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [newName, setNewName] = useState('');
  const [busy, setBusy] = useState(false);
  const [list, setList] = useState<OwnedBot[] | null>(null);
  const [listError, setListError] = useState<string | null>(null);
  const online = useAppState((s) => s.conn.status === 'online');

  const refresh = useCallback(
    () =>
      bots.list().then(
        (list) => (setList(list), setListError(null)),
        (err: Error) => setListError(err.message),
      ),
    [bots],
  );
  useEffect(() => {
    if (online) void refresh();
  }, [online, refresh]);

  const run = async (action: () => Promise<void>) => {
    setShown(null);
    setStatus(null);
    setError(null);
    setBusy(true);
    try {
      await action();
    } catch (err) {
      setError((err as Error).message);
    } finally {
      setBusy(false);
      void refresh();
    }
  };
  const create = (e: FormEvent) => {
    e.preventDefault();
    void run(async () => {
      const made = await bots.create(newName.trim());
      setShown({ bot: made.name, token: made.token });
      setNewName('');
    });
  };
  const newToken = (name: string) =>
    run(async () => {
      setShown({ bot: name, token: await bots.newToken(name) });
    });
  const revoke = (name: string) =>
    run(async () => {
      await bots.revokeTokens(name);
      setStatus(`Every token of ${name} is revoked: it is disconnected and cannot connect until it gets a new token.`);
    });

  return (
    <div className="bots-page">
      <section className="panel" aria-labelledby="bots-title">
        <h1 id="bots-title">My bots</h1>
        <p className="hint">
          A bot is a program that plays as its own account, marked <BotBadge bot />, through the same protocol as
          this site (see docs/bots.md and the programs in <code>bots/</code>). It connects with a token.
        </p>
        {error && (
          <p className="form-error" role="alert">
            {error}
          </p>
        )}
        {status && <p role="status">{status}</p>}
        {shown && <BotTokenOnce shown={shown} onHide={() => setShown(null)} />}
      </section>
      <section className="panel" aria-labelledby="bot-list-title">
        <h2 id="bot-list-title">Your bots</h2>
        <p className="hint">
          Give a bot another token (one per machine, say), or revoke all of its tokens at once: its connections
          close and every token stops working until it gets a new one.
        </p>
        {listError ? (
          <p role="alert">{listError}</p>
        ) : list === null ? (
          <p className="hint">Loading…</p>
        ) : list.length === 0 ? (
          <p className="hint">No bots yet.</p>
        ) : (
          <ul className="plain-list bot-list">
            {list.map((b) => (
              <li key={b.id}>
                <Link to={`/player/${b.id}`}>{b.name}</Link> · {b.tokens} working {b.tokens === 1 ? 'token' : 'tokens'}{' '}
                <span className="button-row">
                  <button
                    type="button"
                    aria-label={`New token for ${b.name}`}
                    disabled={busy}
                    onClick={() => void newToken(b.name)}
                  >
                    New token
                  </button>
                  <ConfirmButton
                    label={`Revoke the tokens of ${b.name}`}
                    disabled={busy || b.tokens === 0}
                    confirmLabel={`Yes, revoke the tokens of ${b.name}`}
                    onConfirm={() => void revoke(b.name)}
                  >
                    Revoke tokens
                  </ConfirmButton>
                </span>
              </li>
            ))}
          </ul>
        )}
      </section>
      <section className="panel" aria-labelledby="bot-create-title">
        <h2 id="bot-create-title">Create a bot</h2>
        <form onSubmit={create} className="stack">
          <label htmlFor="bot-new-name">New bot's username</label>
          <input
            id="bot-new-name"
            value={newName}
            onChange={(e) => setNewName(e.target.value)}
            autoComplete="off"
            spellCheck={false}
          />
          <p className="hint">3 to 20 letters, digits, _ or -, as for accounts.</p>
          <button type="submit" className="primary" disabled={busy || !newName.trim()}>
            Create bot
          </button>
        </form>
      </section>
    </div>
  );
}

/** A bot's token shown this once, with the command that runs a bot with it. */
function BotTokenOnce({ shown, onHide }: { shown: ShownToken; onHide: () => void }) {
  return (
    <TokenOnce region={`New token for ${shown.bot}`} label={`Token for ${shown.bot}`} token={shown.token} onHide={onHide}>
      <p className="hint">
        Run a bot with it:{' '}
        <code>
          CHESS_BOT_TOKEN={shown.token} /usr/bin/python3 bots/uci_bridge.py --url {window.location.protocol === 'https:' ? 'wss' : 'ws'}://
          {window.location.host}/ws
        </code>
      </p>
    </TokenOnce>
  );
}
