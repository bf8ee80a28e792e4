/*
 * A challenge by link (/challenge/<id>): the friend sees who challenges them (a bot marked so),
 * the time control, their colour and whether the game is rated, and accepts; a direct challenge
 * to them may be declined too. The creator sees the link to share while waiting. The game's page
 * opens for both when it starts.
 */
import { useEffect, useState } from 'react';
import { Link, navigate } from '../../app/router';
import { BotBadge } from '../../components/BotBadge';
import { ShareLink } from '../../components/ShareLink';
import { seekModeLabel } from '../../lib/mode';
import { readableError } from '../../lib/errors';
import { formatTimeControl, speedOf } from '../../lib/timeControl';
import { variantLabel } from '../../lib/variant';
import { useAppState } from '../../hooks/useStore';
import type { Seek } from '../../net/protocol';
import { useLobby, useLobbyState } from './hooks';

export function ChallengePage({ id }: { id: string }) {
  const lobby = useLobby();
  const online = useAppState((s) => s.conn.status === 'online');
  const me = useAppState((s) => s.me);
  const mine = useLobbyState((s) => s.challenges[id]);
  const [challenge, setChallenge] = useState<Seek | null>(null);
  const [error, setError] = useState<string | null>(null);

  useEffect(() => {
    if (!online) return;
    let live = true;
    lobby.getChallenge(id).then(
      (c) => live && (setChallenge(c), setError(null)),
      (err) => live && setError(readableError(err)),
    );
    return () => {
      live = false;
    };
  }, [lobby, id, online]);

  const shown = mine ?? challenge;
  if (error && !mine) {
    return (
      <section className="panel narrow">
        <h1>Challenge</h1>
        <p role="alert">{error}</p>
        <p>
          It may have been accepted or cancelled. <Link to="/">Back to the lobby</Link>
        </p>
      </section>
    );
  }
  if (!shown) {
    return (
      <section className="panel narrow">
        <h1>Challenge</h1>
        <p className="hint">Loading…</p>
      </section>
    );
  }
  const tc = formatTimeControl(shown.time);
  const isMine = shown.player.id === me?.id;
  const yourColor = shown.color === 'random' ? 'a random colour' : shown.color === 'white' ? 'Black' : 'White';
  return (
    <section className="panel narrow" aria-labelledby="challenge-title">
      <h1 id="challenge-title">
        {isMine ? (
          'Your challenge'
        ) : (
          <>
            {shown.player.name}
            <BotBadge bot={shown.player.bot} /> challenges you
          </>
        )}
      </h1>
      <p>
        {tc} · {speedOf(shown.time)} · <span className="challenge-variant">{variantLabel(shown.variant, shown.position)}</span> ·{' '}
        {seekModeLabel(shown)} ·{' '}
        {isMine
          ? `you play ${shown.color === 'random' ? 'a random colour' : shown.color}`
          : `you play ${yourColor}`}
      </p>
      {isMine ? (
        <>
          <ShareLink path={`/challenge/${shown.id}`} label="Send this link to your friend" />
          <p className="hint">Waiting for your friend to accept…</p>
          <button
            type="button"
            onClick={async () => {
              if (await lobby.cancelChallenge(shown.id)) navigate('/');
            }}
          >
            Cancel challenge
          </button>
        </>
      ) : (
        <div className="button-row">
          <button type="button" className="primary" onClick={() => lobby.acceptChallenge(shown.id)}>
            Accept challenge
          </button>
          {shown.to?.id === me?.id ? (
            <button
              type="button"
              onClick={async () => {
                if (await lobby.declineChallenge(shown.id)) navigate('/');
              }}
            >
              Decline
            </button>
          ) : (
            <Link to="/">Decline</Link>
          )}
        </div>
      )}
    </section>
  );
}
