/*
 * The tournaments page (/tournaments): the arenas the server keeps (arena_list, asked for again
 * every 10 s while shown), each with its clock, length, players and time to its start or end
 * (ticking each second), a Join button for accounts, and the form that creates an arena
 * (accounts only: name, clock preset, length, start, rated or casual). The server's refusals are
 * shown in the form (ARENA_BAD_SETTINGS, TOO_MANY_ARENAS) or as notices (joining).
 */
import { useEffect, useState, type FormEvent } from 'react';
import { Link, navigate } from '../../app/router';
import { ModePicker } from '../../components/ModePicker';
import { PresetSelect, presetTime } from '../../components/PresetSelect';
import { useNow } from '../../hooks/useNow';
import { useAppState } from '../../hooks/useStore';
import type { Mode } from '../../lib/mode';
import { formatTimeControl, speedOf } from '../../lib/timeControl';
import type { ArenaSummary } from '../../net/protocol';
import { arenaTimeText } from './arena';
import { useArena, useArenaState } from './hooks';

/** How often the list is asked for again while shown. */
const REFRESH_MS = 10000;

/** The start choices, in seconds from now. */
const STARTS_IN: readonly { seconds: number; label: string }[] = [
  { seconds: 0, label: 'At once' },
  { seconds: 60, label: 'In 1 minute' },
  { seconds: 120, label: 'In 2 minutes' },
  { seconds: 300, label: 'In 5 minutes' },
  { seconds: 600, label: 'In 10 minutes' },
  { seconds: 1800, label: 'In 30 minutes' },
  { seconds: 3600, label: 'In 1 hour' },
];

export function TournamentsPage() {
  const arena = useArena();
  const list = useArenaState((s) => s.list);
  const registered = useAppState((s) => s.me?.registered === true && !s.me.bot);
  useEffect(() => {
    const release = arena.holdList();
    const t = setInterval(() => arena.refreshList(), REFRESH_MS);
    return () => {
      clearInterval(t);
      release();
    };
  }, [arena]);
  return (
    <div className="tournaments">
      <section className="panel" aria-labelledby="arenas-title">
        <h1 id="arenas-title">Arena tournaments</h1>
        <p className="hint">
          Play as many games as you can until the end: a win is 2 points, a draw 1, and two wins in a row put you on
          fire (double points).
        </p>
        {list === null ? (
          <p className="hint">Loading…</p>
        ) : list.length === 0 ? (
          <p className="hint">No tournaments yet.{registered ? ' Create one below.' : ''}</p>
        ) : (
          <ArenaTable arenas={list} registered={registered} />
        )}
      </section>
      {registered ? (
        <CreateArena />
      ) : (
        <section className="panel">
          <p className="hint">
            Tournaments are created and played by accounts: <Link to="/account">register or log in</Link>.
          </p>
        </section>
      )}
    </div>
  );
}

function ArenaTable({ arenas, registered }: { arenas: ArenaSummary[]; registered: boolean }) {
  const arena = useArena();
  useNow(1000);
  const now = Date.now();
  // Those to come and in progress first, then the finished ones, newest first.
  const shown = [...arenas.filter((a) => a.status !== 'finished'), ...arenas.filter((a) => a.status === 'finished').reverse()];
  const join = async (id: string) => {
    if (await arena.join(id)) navigate(`/tournament/${id}`);
  };
  return (
    <table className="seek-table arena-table">
      <thead>
        <tr>
          <th scope="col">Tournament</th>
          <th scope="col">Clock</th>
          <th scope="col">Length</th>
          <th scope="col">When</th>
          <th scope="col">Players</th>
          <th scope="col">
            <span className="visually-hidden">Action</span>
          </th>
        </tr>
      </thead>
      <tbody>
        {shown.map((a) => (
          <tr key={a.id} className={a.status === 'finished' ? 'finished' : undefined}>
            <td>
              <Link to={`/tournament/${a.id}`}>{a.name}</Link>
            </td>
            <td>
              {formatTimeControl(a.time)} {speedOf(a.time)} · {a.rated ? 'rated' : 'casual'}
            </td>
            <td>{a.minutes} min</td>
            <td>{arenaTimeText(a, now)}</td>
            <td>{a.players}</td>
            <td>
              {registered && a.status !== 'finished' && (
                <button type="button" onClick={() => void join(a.id)} aria-label={`Join ${a.name}`}>
                  Join
                </button>
              )}
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

function CreateArena() {
  const arena = useArena();
  const me = useAppState((s) => s.me);
  const [name, setName] = useState(() => (me?.name ? `${me.name} Arena`.slice(0, 30) : ''));
  const [clock, setClock] = useState('3+2');
  const [minutes, setMinutes] = useState('45');
  const [startsIn, setStartsIn] = useState(String(STARTS_IN[2].seconds));
  const [mode, setMode] = useState<Mode>('rated');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const submit = async (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    const length = Number(minutes);
    if (!Number.isInteger(length) || length < 1 || length > 720) {
      setError('Length: a whole number of minutes from 1 to 720.');
      return;
    }
    setError(null);
    setBusy(true);
    try {
      const created = await arena.createOrThrow({
        name,
        time: presetTime(clock),
        minutes: length,
        startsIn: Number(startsIn),
        rated: mode === 'rated',
      });
      navigate(`/tournament/${created.id}`);
    } catch (err) {
      setError((err as Error).message);
    } finally {
      setBusy(false);
    }
  };
  return (
    <section className="panel" aria-labelledby="create-arena-title">
      <h2 id="create-arena-title">Create a tournament</h2>
      <form onSubmit={submit}>
        <div className="time-fields arena-fields">
          <label htmlFor="arena-name">Name</label>
          <input id="arena-name" value={name} maxLength={30} onChange={(e) => setName(e.target.value)} />
          <label htmlFor="arena-clock">Clock</label>
          <PresetSelect id="arena-clock" value={clock} onChange={setClock} unlimited={false} />
          <label htmlFor="arena-minutes">Length (minutes)</label>
          <input
            id="arena-minutes"
            type="number"
            inputMode="numeric"
            min={1}
            max={720}
            value={minutes}
            onChange={(e) => setMinutes(e.target.value)}
          />
          <label htmlFor="arena-starts">Starts</label>
          <select id="arena-starts" value={startsIn} onChange={(e) => setStartsIn(e.target.value)}>
            {STARTS_IN.map((s) => (
              <option key={s.seconds} value={s.seconds}>
                {s.label}
              </option>
            ))}
          </select>
        </div>
        <ModePicker name="arena-mode" value={mode} onChange={setMode} registered />
        {error && (
          <p className="form-error" role="alert">
            {error}
          </p>
        )}
        <div className="button-row">
          <button type="submit" className="primary" disabled={busy}>
            Create the tournament
          </button>
        </div>
      </form>
    </section>
  );
}
