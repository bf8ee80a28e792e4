/*
 * A player's profile (/player/<id>): name, account, ratings by category with their history as a
 * chart, a direct challenge when
 * they are online (bots included; the lobby's DirectChallenge), and their finished games page by
 * page, each opening the game's page. Read from the server's database (player_get,
 * games_list); a server without one says so, and the page shows its answer.
 */
import { useEffect, useState } from 'react';
import { Link } from '../../app/router';
import { BotBadge } from '../../components/BotBadge';
import { useAppState } from '../../hooks/useStore';
import { describeOutcome } from '../../lib/outcome';
import { formatTimeControl } from '../../lib/timeControl';
import type { ArchivedGame, Profile } from '../../net/protocol';
import { DirectChallenge } from '../lobby';
import { PlayerModeration } from '../moderation';
import { useAccount } from './hooks';
import { categoryLabel, profileCategories } from './categories';
import { RatingChart } from './RatingChart';

const PAGE_SIZE = 20;

export function ProfilePage({ id }: { id: string }) {
  const account = useAccount();
  const online = useAppState((s) => s.conn.status === 'online');
  const me = useAppState((s) => s.me);
  const [profile, setProfile] = useState<Profile | null>(null);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    if (!online) return;
    let live = true;
    account.profile({ id }).then(
      (p) => live && (setProfile(p), setError(null)),
      (err: Error) => live && setError(err.message),
    );
    return () => {
      live = false;
    };
  }, [account, id, online]);

  if (error) {
    return (
      <section className="panel narrow">
        <h1>Player</h1>
        <p role="alert">{error}</p>
        <p>
          <Link to="/">Back to the lobby</Link>
        </p>
      </section>
    );
  }
  if (!profile) {
    return (
      <section className="panel narrow">
        <h1>Player</h1>
        <p className="hint">Loading…</p>
      </section>
    );
  }
  return (
    <div className="profile">
      <section className="panel" aria-labelledby="profile-title">
        <h1 id="profile-title">
          {profile.name}
          <BotBadge bot={profile.bot} />
        </h1>
        <p className="hint">
          {profile.registered ? `Account ${profile.username ?? ''}` : 'Guest'} ·{' '}
          {profile.online ? 'online now' : 'offline'} · since{' '}
          {new Date(profile.created_at).toLocaleDateString()}
          {me?.id === profile.id && ' · this is you'}
        </p>
        <table className="ratings">
          <caption className="visually-hidden">Ratings</caption>
          <thead>
            <tr>
              <th scope="col">Category</th>
              <th scope="col">Rating</th>
              <th scope="col">Games</th>
            </tr>
          </thead>
          <tbody>
            {profileCategories(profile.ratings).map((c) => {
              const r = profile.ratings[c];
              return (
                <tr key={c}>
                  <th scope="row">{categoryLabel(c)}</th>
                  <td>
                    {r ? `${r.rating}${r.provisional ? '?' : ''} ± ${r.deviation}` : '–'}
                  </td>
                  <td>{r?.games ?? 0}</td>
                </tr>
              );
            })}
          </tbody>
        </table>
        {profile.rating_history && <RatingChart history={profile.rating_history} />}
      </section>
      {profile.online && me && me.id !== profile.id && <DirectChallenge player={profile} />}
      {me && me.id !== profile.id && !profile.computer && <PlayerModeration player={profile} />}
      {me?.id === profile.id && profile.registered && !profile.bot && (
        <section className="panel" aria-labelledby="bots-title">
          <h2 id="bots-title">Your bots</h2>
          <p>
            Programs that play as bot accounts of yours: <Link to="/bots">manage your bots and their tokens</Link>.
          </p>
        </section>
      )}
      <GameHistory player={profile.id} />
    </div>
  );
}

function GameHistory({ player }: { player: string }) {
  const account = useAccount();
  const online = useAppState((s) => s.conn.status === 'online');
  const [page, setPage] = useState(1);
  const [games, setGames] = useState<ArchivedGame[] | null>(null);
  const [more, setMore] = useState(false);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    if (!online) return;
    let live = true;
    account.gamesList(player, page, PAGE_SIZE).then(
      (r) => live && (setGames(r.games), setMore(r.more), setError(null)),
      (err: Error) => live && setError(err.message),
    );
    return () => {
      live = false;
    };
  }, [account, player, page, online]);
  return (
    <section className="panel" aria-labelledby="history-title">
      <h2 id="history-title">Games</h2>
      {error ? (
        <p role="alert">{error}</p>
      ) : games === null ? (
        <p className="hint">Loading…</p>
      ) : games.length === 0 ? (
        <p className="hint">No finished games yet.</p>
      ) : (
        <ul className="history">
          {games.map((g) => (
            <HistoryRow key={g.id} game={g} player={player} />
          ))}
        </ul>
      )}
      {(page > 1 || more) && (
        <div className="button-row" role="navigation" aria-label="Pages of games">
          <button type="button" disabled={page === 1} onClick={() => setPage(page - 1)}>
            Newer
          </button>
          <span>Page {page}</span>
          <button type="button" disabled={!more} onClick={() => setPage(page + 1)}>
            Older
          </button>
        </div>
      )}
    </section>
  );
}

function Side({ side: s }: { side: ArchivedGame['white'] }) {
  const diff = s.rating_diff ? ` ${s.rating_diff > 0 ? '+' : ''}${s.rating_diff}` : '';
  return (
    <>
      {s.name}
      <BotBadge bot={s.bot} />
      {s.rating ? ` (${s.rating}${diff})` : ''}
    </>
  );
}

function HistoryRow({ game, player }: { game: ArchivedGame; player: string }) {
  const o = game.result ? describeOutcome(game.result, game.reason, game.winner) : null;
  const color = game.white.id === player ? 'white' : game.black.id === player ? 'black' : null;
  const verdict = !o || !color || game.result === '*' ? '' : game.winner === null ? 'draw' : game.winner === color ? 'won' : 'lost';
  return (
    <li>
      <Link to={`/game/${game.id}`} className="history-game">
        <span className="history-players">
          <Side side={game.white} /> vs <Side side={game.black} />
        </span>
        <span className="history-meta">
          {formatTimeControl(game.time)} · {game.rated ? 'rated' : 'casual'} ·{' '}
          {new Date(game.ended_at ?? game.created_at).toLocaleString()}
        </span>
        {game.opening && (
          <span className="history-opening" title={`${game.opening.eco} ${game.opening.name}`}>
            {game.opening.eco} {game.opening.name}
          </span>
        )}
        <span className={`history-result ${verdict}`}>
          {o ? `${o.score} · ${o.title}${o.detail && o.title !== o.detail ? ` (${o.detail})` : ''}` : game.status}
        </span>
      </Link>
    </li>
  );
}
