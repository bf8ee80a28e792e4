/*
 * The account's personal API access tokens (docs/protocol.md, "API access tokens"), as lichess
 * has them: create one with a description and a checkbox per scope, see its text once (with a
 * copy button; only this page's memory has it), list the working ones (never their text) and
 * revoke one. The server's refusals are shown in words.
 */
import { useCallback, useEffect, useId, useState, type FormEvent } from 'react';
import { ConfirmButton } from '../../components/ConfirmButton';
import { TokenOnce } from '../../components/TokenOnce';
import { useAppState } from '../../hooks/useStore';
import type { ApiTokenInfo } from '../../net/protocol';
import { API_SCOPES, splitScopes } from './apiScopes';
import { useAccount } from './hooks';

interface Shown {
  description: string;
  token: string;
}

export function ApiTokens() {
  const account = useAccount();
  const online = useAppState((s) => s.conn.status === 'online');
  const [tokens, setTokens] = useState<ApiTokenInfo[] | null>(null);
  const [listError, setListError] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [shown, setShown] = useState<Shown | null>(null);
  const [description, setDescription] = useState('');
  const [scopes, setScopes] = useState<ReadonlySet<string>>(new Set());
  const [busy, setBusy] = useState(false);
  const id = useId();
  const reload = useCallback(() => {
    account.apiTokens().then(
      (list) => (setTokens(list), setListError(null)),
      (err: Error) => setListError(err.message),
    );
  }, [account]);
  useEffect(() => {
    if (online) reload();
  }, [online, reload]);

  const toggle = (scope: string, on: boolean) => {
    const next = new Set(scopes);
    if (on) next.add(scope);
    else next.delete(scope);
    setScopes(next);
  };
  const create = async (e: FormEvent) => {
    e.preventDefault();
    setShown(null);
    setError(null);
    setBusy(true);
    try {
      const wanted = API_SCOPES.map((s) => s.scope).filter((s) => scopes.has(s));
      const made = await account.createApiToken(description.trim(), wanted);
      setShown({ description: made.info.description, token: made.token });
      setDescription('');
      setScopes(new Set());
    } catch (err) {
      setError((err as Error).message);
    } finally {
      setBusy(false);
      reload();
    }
  };
  const revoke = async (token: ApiTokenInfo) => {
    setError(await account.revokeApiToken(token.id));
    reload();
  };

  return (
    <section className="panel" aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`}>API access tokens</h2>
      <p className="hint">
        Personal tokens let your programs use the HTTP API as this account, sent as{' '}
        <code>Authorization: Bearer &lt;token&gt;</code>. Each can do only what its scopes allow. Your bots' own
        tokens already work there with <code>bot:play</code>.
      </p>
      {shown && (
        <TokenOnce
          region={`New API token ${shown.description}`}
          label={`API token ${shown.description}`}
          token={shown.token}
          onHide={() => setShown(null)}
        />
      )}
      {listError ? (
        <p role="alert">{listError}</p>
      ) : tokens === null ? (
        <p className="hint">Loading…</p>
      ) : tokens.length === 0 ? (
        <p className="hint">No API tokens yet.</p>
      ) : (
        <ul className="plain-list sessions" aria-label="API access tokens">
          {tokens.map((t) => (
            <li key={t.id} aria-label={`API token ${t.description}`}>
              <span>
                <strong>{t.description}</strong> <code>{t.id}</code>
                <br />
                <span className="hint">
                  {t.scopes ? splitScopes(t.scopes).join(', ') : 'no scopes'} · created{' '}
                  {new Date(t.created_at).toLocaleString()}
                  {t.last_used_at !== null && <>, last used {new Date(t.last_used_at).toLocaleString()}</>}
                </span>
              </span>
              <ConfirmButton
                label={`Revoke the API token ${t.description}`}
                confirmLabel={`Yes, revoke ${t.description}`}
                disabled={!online}
                onConfirm={() => void revoke(t)}
              >
                Revoke
              </ConfirmButton>
            </li>
          ))}
        </ul>
      )}
      <form onSubmit={create} className="stack" aria-label="New API access token">
        <h3>New token</h3>
        <label htmlFor={`${id}-description`}>Token description</label>
        <input
          id={`${id}-description`}
          value={description}
          maxLength={100}
          autoComplete="off"
          onChange={(e) => setDescription(e.target.value)}
        />
        <fieldset>
          <legend>What the token may do</legend>
          {API_SCOPES.map((s) => (
            <label key={s.scope} className="check">
              <input type="checkbox" checked={scopes.has(s.scope)} onChange={(e) => toggle(s.scope, e.target.checked)} />{' '}
              {s.label} ({s.scope})
            </label>
          ))}
        </fieldset>
        {error && (
          <p className="form-error" role="alert">
            {error}
          </p>
        )}
        <button type="submit" className="primary" disabled={busy || !online || !description.trim()}>
          Create token
        </button>
      </form>
    </section>
  );
}
