/*
 * Live games to watch: a small board, the players and the time control, each linking to the
 * game's page (read-only for spectators). Refreshed every few seconds while shown.
 */
import { useEffect } from 'react';
import { Link } from '../../app/router';
import { BotBadge } from '../../components/BotBadge';
import { MiniBoard } from '../../components/MiniBoard';
import { formatTimeControl } from '../../lib/timeControl';
import { useWatch, useWatchState } from './hooks';

export function LiveGames({ refreshMs = 5000 }: { refreshMs?: number }) {
  const watch = useWatch();
  const games = useWatchState((s) => s.liveGames);
  useEffect(() => {
    const release = watch.hold();
    const t = setInterval(() => watch.refresh(), refreshMs);
    return () => {
      clearInterval(t);
      release();
    };
  }, [watch, refreshMs]);
  return (
    <section className="panel" aria-labelledby="live-title">
      <h2 id="live-title">Live games</h2>
      {games === null ? (
        <p className="hint">Loading…</p>
      ) : games.length === 0 ? (
        <p className="hint">No games in play right now.</p>
      ) : (
        <ul className="live-list">
          {games.map((g) => (
            <li key={g.id}>
              <Link
                to={`/game/${g.id}`}
                className="live-game"
                // The name starts with the text shown (for speech input), then says who is White.
                aria-label={`Watch ${g.white.name}${g.white.bot ? ' BOT' : ''} vs ${g.black.name}${g.black.bot ? ' BOT' : ''} ${formatTimeControl(g.time)}, ${g.white.name} has white, move ${Math.floor(g.ply / 2) + 1}`}
              >
                <MiniBoard fen={g.fen} />
                <span className="live-names">
                  <span>
                    {g.white.name}
                    {g.white.bot && ' '}
                    <BotBadge bot={g.white.bot} />
                  </span>{' '}
                  <span className="vs">vs</span>{' '}
                  <span>
                    {g.black.name}
                    {g.black.bot && ' '}
                    <BotBadge bot={g.black.bot} />
                  </span>
                </span>{' '}
                <span className="live-tc">{formatTimeControl(g.time)}</span>
              </Link>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
