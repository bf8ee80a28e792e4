/*
 * Live games to watch: a small board, the players, the time control and the variant, each
 * linking to the game's page (read-only for spectators). Refreshed every few seconds while shown.
 */
import { useEffect } from 'react';
import { Link } from '../../app/router';
import { BotBadge } from '../../components/BotBadge';
import { MiniBoard } from '../../components/MiniBoard';
import { formatTimeControl } from '../../lib/timeControl';
import { variantLabel } from '../../lib/variant';
import type { GameSummary } from '../../net/protocol';
import { useWatch, useWatchState } from './hooks';

/** The time control, and the variant of a game other than standard chess ("3+2 Chess960 #692"). */
export function liveGameLabel(g: Pick<GameSummary, 'time' | 'variant' | 'position'>): string {
  const tc = formatTimeControl(g.time);
  return !g.variant || g.variant === 'standard' ? tc : `${tc} ${variantLabel(g.variant, g.position)}`;
}

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
                aria-label={`Watch ${g.white.name}${g.white.bot ? ' BOT' : ''} vs ${g.black.name}${g.black.bot ? ' BOT' : ''} ${liveGameLabel(g)}, ${g.white.name} has white, move ${Math.floor(g.ply / 2) + 1}`}
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
                <span className="live-tc">{liveGameLabel(g)}</span>
              </Link>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
