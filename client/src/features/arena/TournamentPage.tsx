/*
 * An arena's page (/tournament/<id>): watched while shown (arena_watch, arena_unwatch on
 * leaving; the controller watches it again after a reconnect). It shows the arena's name,
 * clock, mode and the time to its start or end (ticking each second from the server's times),
 * the podium once finished, the player's own place, Join and Pause (withdraw) for accounts,
 * the player's game in progress with a link to it, and the standings: rank, player and rating,
 * the sheet of recent results (most recent first, bonus wins marked), and the score with the
 * fire of a streak. As on lichess, a new game of the player's opens by itself (the app also opens
 * every game that starts for the player).
 */
import { useEffect, useRef } from 'react';
import { Link, navigate } from '../../app/router';
import { Icon } from '../../components/Icon';
import { useNow } from '../../hooks/useNow';
import { useAppState } from '../../hooks/useStore';
import { formatTimeControl, speedOf } from '../../lib/timeControl';
import type { ArenaFull, ArenaStanding } from '../../net/protocol';
import { arenaTimeText, gameToOpen, sheetGames, STATUS_WORDS } from './arena';
import { useArena, useArenaState } from './hooks';

export function TournamentPage({ id }: { id: string }) {
  const arena = useArena();
  useEffect(() => arena.watch(id), [arena, id]);
  const state = useArenaState((s) => s.arenas[id]);
  const error = useArenaState((s) => s.errors[id]);
  useOpenNewGames(state);
  if (!state) {
    return (
      <section className="panel narrow">
        <h1>Tournament</h1>
        {error ? (
          <>
            <p role="alert">{error}</p>
            <p>
              <Link to="/tournaments">All tournaments</Link>
            </p>
          </>
        ) : (
          <p className="hint">Loading the tournament…</p>
        )}
      </section>
    );
  }
  return <ArenaView arena={state} />;
}

/** Opens the player's new games: not the one in progress when the page came, the later ones. */
function useOpenNewGames(state: ArenaFull | undefined) {
  const seen = useRef<Set<string> | null>(null);
  const loaded = state !== undefined;
  const game = state?.game;
  useEffect(() => {
    if (!loaded) return;
    if (seen.current === null) {
      seen.current = new Set(game ? [game] : []);
      return;
    }
    const open = gameToOpen(game, seen.current);
    if (open) {
      seen.current.add(open);
      navigate(`/game/${open}`);
    }
  }, [loaded, game]);
}

function ArenaView({ arena: a }: { arena: ArenaFull }) {
  const arena = useArena();
  const registered = useAppState((s) => s.me?.registered === true && !s.me.bot);
  const myId = useAppState((s) => s.me?.id);
  useNow(1000, a.status !== 'finished');
  const now = Date.now();
  const me = a.me;
  return (
    <div className="tournament">
      <section className="panel" aria-labelledby="arena-title">
        <h1 id="arena-title">
          <Icon name="trophy" size={22} /> {a.name}
        </h1>
        <p className="game-meta">
          {formatTimeControl(a.time)} {speedOf(a.time)} · {a.rated ? 'rated' : 'casual'} · {a.minutes} minutes ·{' '}
          {a.players} {a.players === 1 ? 'player' : 'players'} · {STATUS_WORDS[a.status]}
        </p>
        <p className="arena-clock" role="timer" aria-live="off">
          {arenaTimeText(a, now)}
        </p>
        {a.status === 'finished' && a.podium && a.podium.length > 0 && <Podium podium={a.podium} />}
        {me && (
          <p className="arena-me" role="status">
            {`You are ${ordinal(me.rank)} with ${points(me.score)}`}
            {me.withdrawn ? ' (paused: you will not be paired until you join again)' : ''}
          </p>
        )}
        {a.game && (
          <p>
            <Link to={`/game/${a.game}`} className="button primary">
              Your game is on: open it
            </Link>
          </p>
        )}
        {a.status !== 'finished' &&
          (registered ? (
            <div className="button-row">
              {me && !me.withdrawn ? (
                <button type="button" onClick={() => void arena.withdraw(a.id)}>
                  Pause
                </button>
              ) : (
                <button type="button" className="primary" onClick={() => void arena.join(a.id)}>
                  {me ? 'Join again' : 'Join'}
                </button>
              )}
            </div>
          ) : (
            <p className="hint">
              Tournaments are played by accounts: <Link to="/account">register or log in</Link> to join.
            </p>
          ))}
        <p>
          <Link to="/tournaments">All tournaments</Link>
        </p>
      </section>
      <section className="panel" aria-labelledby="standings-title">
        <h2 id="standings-title">Standings</h2>
        {a.standings.length === 0 ? (
          <p className="hint">Nobody has joined yet.</p>
        ) : (
          <Standings standings={a.standings} myId={myId} />
        )}
      </section>
    </div>
  );
}

function Podium({ podium }: { podium: ArenaStanding[] }) {
  return (
    <ol className="podium" aria-label="Podium">
      {podium.map((p) => (
        <li key={p.player.id} className={`podium-${p.rank}`}>
          <span className="podium-rank">{ordinal(p.rank)}</span> <Link to={`/player/${p.player.id}`}>{p.player.name}</Link>{' '}
          <span className="podium-score">{points(p.score)}</span>{' '}
          <span className="hint">
            {p.games} {p.games === 1 ? 'game' : 'games'}, {p.wins} {p.wins === 1 ? 'win' : 'wins'}, performance{' '}
            {p.performance}
          </span>
        </li>
      ))}
    </ol>
  );
}

function Standings({ standings, myId }: { standings: ArenaStanding[]; myId: string | undefined }) {
  return (
    <table className="seek-table standings">
      <thead>
        <tr>
          <th scope="col">Rank</th>
          <th scope="col">Player</th>
          <th scope="col">Recent games</th>
          <th scope="col">Score</th>
        </tr>
      </thead>
      <tbody>
        {standings.map((p) => (
          <tr key={p.player.id} className={p.player.id === myId ? 'mine' : undefined}>
            <td>{p.rank}</td>
            <td>
              <Link to={`/player/${p.player.id}`}>{p.player.name}</Link> <span className="rating">{p.rating}</span>
              {p.withdrawn && <span className="hint"> paused</span>}
              {p.playing && <span className="hint"> playing</span>}
            </td>
            <td className="sheet">
              {sheetGames(p.sheet).map((g, i) => (
                <span key={i} className={g.bonus ? 'sheet-bonus' : undefined}>
                  {g.points}
                </span>
              ))}
            </td>
            <td className="score">
              {p.fire && (
                <span className="fire" role="img" aria-label="on fire" title="On fire: two wins in a row, double points">
                  <Icon name="fire" size={16} />
                </span>
              )}
              <span className="score-points">{p.score}</span>
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

function ordinal(n: number): string {
  const tens = n % 100;
  const suffix = tens >= 11 && tens <= 13 ? 'th' : ['th', 'st', 'nd', 'rd'][n % 10] ?? 'th';
  return `${n}${suffix}`;
}

function points(n: number): string {
  return `${n} ${n === 1 ? 'point' : 'points'}`;
}
