/*
 * The daily games waiting for this player's move (lichess's "Your turn"), from my_games: asked
 * for when the lobby shows and again whenever one of the player's games moves, starts or ends.
 */
import { useEffect } from 'react';
import { Link } from '../../app/router';
import { useAppState } from '../../hooks/useStore';
import { useNow } from '../../hooks/useNow';
import { formatDaily, formatTimeControl } from '../../lib/timeControl';
import { useGameList } from '../game';
import { useLobby, useLobbyState } from './hooks';
import { dailyTurns } from './state';

export function YourTurn() {
  const lobby = useLobby();
  const registered = useAppState((s) => s.me?.registered);
  const games = useGameList();
  const changes = Object.values(games)
    .map((g) => `${g.id}:${g.ply}:${g.status}`)
    .join(' ');
  useEffect(() => {
    if (registered) lobby.refreshMyGames();
  }, [lobby, registered, changes]);
  const waiting = dailyTurns(useLobbyState((s) => s.myGames));
  useNow(60000, waiting.length > 0); // a new reading of the time left every minute
  if (!registered || waiting.length === 0) return null;
  const now = Date.now(); // deadlines are wall-clock time
  return (
    <section className="panel" aria-labelledby="your-turn-title">
      <h2 id="your-turn-title">Your turn</h2>
      <ul className="plain-list">
        {waiting.map((g) => {
          const opponent = g.color === 'white' ? g.black : g.white;
          const deadline = g.clock?.deadline;
          return (
            <li key={g.id}>
              <Link to={`/game/${g.id}`} className="button primary">
                Move against {opponent.name}
              </Link>{' '}
              <span className="hint">
                {formatTimeControl(g.time)} · you play {g.color}
                {deadline !== undefined && ` · ${formatDaily(deadline - now)} left`}
              </span>
            </li>
          );
        })}
      </ul>
    </section>
  );
}
