/*
 * The connection's state for people: a dot and a word in the header, and a banner while the
 * client is reconnecting (with the countdown to the next attempt and a button to retry now).
 */
import { useAppState } from '../hooks/useStore';
import { useNow } from '../hooks/useNow';

export function ConnectionStatus() {
  const conn = useAppState((s) => s.conn);
  const me = useAppState((s) => s.me);
  const label =
    conn.status === 'online' ? 'Online' : conn.status === 'connecting' ? 'Connecting…' : 'Offline';
  return (
    <span className={`conn conn-${conn.status}`} role="status" aria-live="polite">
      <span className="dot" aria-hidden="true" />
      <span className="conn-label">{label}</span>
      {me && conn.status === 'online' && <span className="me-name">{me.name}</span>}
    </span>
  );
}

export function ReconnectBanner({ onRetry }: { onRetry: () => void }) {
  const conn = useAppState((s) => s.conn);
  const offline = conn.status !== 'online';
  const now = useNow(250, offline);
  if (!offline || (conn.status === 'connecting' && conn.attempt === 0)) return null;
  const wait = conn.retryAt ? Math.max(0, Math.ceil((conn.retryAt - Date.now()) / 1000)) : 0;
  void now;
  return (
    <div className="banner banner-warn" role="alert">
      {conn.status === 'connecting'
        ? 'Reconnecting…'
        : conn.retryAt === null
          ? `Not connected${conn.lastError ? ` (${conn.lastError})` : ''}.`
          : `Connection lost${conn.lastError ? ` (${conn.lastError})` : ''}. Retrying in ${wait}s.`}
      {conn.status === 'offline' && (
        <button type="button" onClick={onRetry}>
          Retry now
        </button>
      )}
    </div>
  );
}
