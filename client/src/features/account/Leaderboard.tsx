/*
 * The best rated players of each rating category, for the lobby. Shown only by servers that keep ratings: a
 * server without a database refuses the request and the panel stays out of the way.
 */
import { useEffect, useState } from 'react';
import { Link } from '../../app/router';
import { BotBadge } from '../../components/BotBadge';
import { useAppState } from '../../hooks/useStore';
import type { LeaderboardRow, RatingCategory } from '../../net/protocol';
import { categoryLabel, RATING_CATEGORIES } from './categories';
import { useAccount } from './hooks';

export function Leaderboard() {
  const account = useAccount();
  const online = useAppState((s) => s.conn.status === 'online');
  const [category, setCategory] = useState<RatingCategory>('blitz');
  const [rows, setRows] = useState<LeaderboardRow[] | null>(null);
  const [available, setAvailable] = useState(true);
  useEffect(() => {
    if (!online) return;
    let live = true;
    account.leaderboard(category).then(
      (r) => live && (setRows(r), setAvailable(true)),
      () => live && setAvailable(false),
    );
    return () => {
      live = false;
    };
  }, [account, category, online]);
  if (!available || rows === null) return null;
  return (
    <section className="panel" aria-labelledby="leaders-title">
      <h2 id="leaders-title">Top players</h2>
      <div className="segmented" role="tablist" aria-label="Rating category">
        {RATING_CATEGORIES.map((c) => (
          <button
            key={c}
            type="button"
            role="tab"
            aria-selected={c === category}
            className={c === category ? 'selected' : undefined}
            onClick={() => setCategory(c)}
          >
            {categoryLabel(c)}
          </button>
        ))}
      </div>
      <p className="hint">
        A player appears here once their rating is no longer provisional (a deviation under 110,
        as on lichess: about a dozen rated games in this category), and leaves it after a long
        pause, as the deviation grows again.
      </p>
      {rows.length === 0 ? (
        <p className="hint">No player has an established rating in this category yet.</p>
      ) : (
        <ol className="leaders">
          {rows.map((r) => (
            <li key={r.id}>
              <span className="leader-rank">{r.rank}.</span>
              <Link to={`/player/${r.id}`}>{r.name}</Link>
              <BotBadge bot={r.bot} />
              <span className="leader-rating">{r.rating}</span>
            </li>
          ))}
        </ol>
      )}
    </section>
  );
}
