/*
 * The lobby: quick pairing by preset, a custom game (seek or challenge by link), a game against
 * the computer, the live list of open seeks, challenges to this player (from bots, say) and its
 * own open challenges, and players and games online. Panels of other features (the live games
 * to watch, the leaderboard) come from the app, which composes the page.
 */
import { useEffect, useState, type FormEvent, type ReactNode } from 'react';
import { Link, navigate } from '../../app/router';
import { BotBadge } from '../../components/BotBadge';
import { ColorPicker } from '../../components/ColorPicker';
import { DailyChoice, dailyTime } from '../../components/DailyChoice';
import { ModePicker } from '../../components/ModePicker';
import { PresetSelect, presetTime } from '../../components/PresetSelect';
import { ShareLink } from '../../components/ShareLink';
import { useAppState } from '../../hooks/useStore';
import type { ColorChoice, DeclineReason, Seek, TimeControl } from '../../net/protocol';
import { ratedField, seekModeLabel, type Mode } from '../../lib/mode';
import { customTimeControl, formatTimeControl, PRESETS, speedOf } from '../../lib/timeControl';
import { useGameList } from '../game';
import { useLobby, useLobbyState } from './hooks';
import { useServerStats } from './useServerStats';
import { useStartForm, VariantFields } from './VariantFields';
import { variantLabel } from '../../lib/variant';
import { YourTurn } from './YourTurn';

/** A seek's or challenge's variant in lists ("Chess960 #518"), or "" for standard chess. */
function seekVariant(seek: Seek): string {
  return !seek.variant || seek.variant === 'standard' ? '' : variantLabel(seek.variant, seek.position);
}

export function LobbyPage({ leaders, live }: { leaders?: ReactNode; live?: ReactNode }) {
  const lobby = useLobby();
  useEffect(() => lobby.hold(), [lobby]);
  const stats = useServerStats();
  return (
    <div className="lobby">
      <div className="lobby-main">
        <YourTurn />
        <GamesInProgress />
        <QuickPairing />
        <SeekList />
      </div>
      <div className="lobby-side">
        <CustomGame />
        <ChallengePlayer />
        <IncomingChallenges />
        <MyChallenges />
        <ComputerGame />
        {leaders}
      </div>
      <div className="lobby-live">
        {live}
        <p className="stats" aria-live="polite">
          {stats
            ? `${stats.players} ${stats.players === 1 ? 'player' : 'players'} online · ${stats.games} ${
                stats.games === 1 ? 'game' : 'games'
              } in play`
            : 'Counting players…'}
        </p>
      </div>
    </div>
  );
}

/** This player's games still being played (after a reload, say), to go back to. */
function GamesInProgress() {
  const me = useAppState((s) => s.me);
  const games = useGameList();
  const mine = Object.values(games).filter(
    (g) => g.status === 'playing' && !g.archived && (g.white.id === me?.id || g.black.id === me?.id),
  );
  if (mine.length === 0) return null;
  return (
    <section className="panel" aria-labelledby="ongoing-title">
      <h2 id="ongoing-title">Your games in progress</h2>
      <ul className="plain-list">
        {mine.map((g) => {
          const color = g.white.id === me?.id ? 'white' : 'black';
          const opponent = color === 'white' ? g.black : g.white;
          return (
            <li key={g.id}>
              <Link to={`/game/${g.id}`} className="button primary">
                Resume against {opponent.name}
              </Link>
              <BotBadge bot={opponent.bot} />{' '}
              <span className="hint">
                {formatTimeControl(g.time)} · you play {color} · {g.turn === color ? 'your turn' : 'their turn'}
              </span>
            </li>
          );
        })}
      </ul>
    </section>
  );
}

function QuickPairing() {
  const lobby = useLobby();
  const registered = useAppState((s) => s.me?.registered);
  const pool = useLobbyState((s) => s.pool);
  const [mode, setMode] = useState<Mode>('rated');
  const rated = ratedField(mode, registered);
  return (
    <section className="panel" aria-labelledby="quick-title">
      <h2 id="quick-title">Quick pairing</h2>
      <p className="hint">Pick a time control: you are paired with someone of a similar rating.</p>
      <div className="preset-grid">
        {PRESETS.map((p) => {
          const name = formatTimeControl(p);
          const waiting = pool !== null && formatTimeControl(pool.time) === name && pool.rated === rated;
          return (
            <button
              key={name}
              type="button"
              className={waiting ? 'preset waiting' : 'preset'}
              aria-pressed={waiting}
              aria-label={`Play a ${name} ${speedOf(p)} game`}
              onClick={() => void (waiting ? lobby.leavePool() : lobby.joinPool(p, rated))}
            >
              <span className="preset-time">{name}</span>{' '}
              <span className="preset-speed">{speedOf(p)}</span>
            </button>
          );
        })}
      </div>
      <p className="pool-status" role="status">
        {pool ? (
          <>
            Looking for a {pool.rated ? 'rated' : 'casual'} {formatTimeControl(pool.time)} opponent…{' '}
            <button type="button" className="link" onClick={() => void lobby.leavePool()}>
              Cancel
            </button>
          </>
        ) : null}
      </p>
      <ModePicker name="quick-mode" value={mode} onChange={setMode} registered={registered} />
    </section>
  );
}

function SeekList() {
  const lobby = useLobby();
  const seeks = useLobbyState((s) => s.seeks);
  const loaded = useLobbyState((s) => s.seeksLoaded);
  const me = useAppState((s) => s.me);
  return (
    <section className="panel" aria-labelledby="seeks-title">
      <h2 id="seeks-title">Open seeks</h2>
      {!loaded ? (
        <p className="hint">Loading…</p>
      ) : seeks.length === 0 ? (
        <p className="hint">No open seeks. Create one above.</p>
      ) : (
        <table className="seek-table">
          <thead>
            <tr>
              <th scope="col">Player</th>
              <th scope="col">Time</th>
              <th scope="col">Speed</th>
              <th scope="col">They play</th>
              <th scope="col">Mode</th>
              <th scope="col">
                <span className="visually-hidden">Action</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {seeks.map((s) => (
              <SeekRow key={s.id} seek={s} mine={s.player.id === me?.id} onJoin={() => lobby.acceptSeek(s.id)} onCancel={() => lobby.cancelSeek(s.id)} />
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}

function SeekRow({
  seek,
  mine,
  onJoin,
  onCancel,
}: {
  seek: Seek;
  mine: boolean;
  onJoin: () => void;
  onCancel: () => void;
}) {
  const tc = formatTimeControl(seek.time);
  // The colour the seeker plays; the joiner gets the other one.
  const color = seek.color === 'random' ? 'random' : seek.color;
  return (
    <tr className={mine ? 'mine' : undefined}>
      <td>
        {seek.player.name}
        <BotBadge bot={seek.player.bot} />
        {mine && ' (you)'}
      </td>
      <td>
        {tc}
        {seekVariant(seek) && <span className="seek-variant">{seekVariant(seek)}</span>}
      </td>
      <td>{speedOf(seek.time)}</td>
      <td>{color}</td>
      <td>{seekModeLabel(seek)}</td>
      <td>
        {mine ? (
          <button type="button" onClick={onCancel} aria-label={`Cancel your ${tc} seek`}>
            Cancel
          </button>
        ) : (
          <button
            type="button"
            className="primary"
            onClick={onJoin}
            aria-label={`Join ${seek.player.name}'s ${tc}${seekVariant(seek) ? ` ${seekVariant(seek)}` : ''} game`}
          >
            Join
          </button>
        )}
      </td>
    </tr>
  );
}

function TimeFields({
  minutes,
  increment,
  setMinutes,
  setIncrement,
  idPrefix,
}: {
  minutes: string;
  increment: string;
  setMinutes: (v: string) => void;
  setIncrement: (v: string) => void;
  idPrefix: string;
}) {
  return (
    <div className="time-fields">
      <label htmlFor={`${idPrefix}-minutes`}>Minutes per side</label>
      <input
        id={`${idPrefix}-minutes`}
        type="number"
        inputMode="decimal"
        min={0.25}
        max={180}
        step="any"
        value={minutes}
        onChange={(e) => setMinutes(e.target.value)}
      />
      <label htmlFor={`${idPrefix}-increment`}>Increment (seconds)</label>
      <input
        id={`${idPrefix}-increment`}
        type="number"
        inputMode="numeric"
        min={0}
        max={180}
        step={1}
        value={increment}
        onChange={(e) => setIncrement(e.target.value)}
      />
    </div>
  );
}

function useTimeForm(initialMinutes: string, initialIncrement: string) {
  const [minutes, setMinutes] = useState(initialMinutes);
  const [increment, setIncrement] = useState(initialIncrement);
  const [unlimited, setUnlimited] = useState(false);
  const read = (): { ok: true; time: TimeControl } | { ok: false; error: string } =>
    unlimited ? { ok: true, time: 'unlimited' } : customTimeControl(Number(minutes), Number(increment));
  return { minutes, increment, setMinutes, setIncrement, unlimited, setUnlimited, read };
}

function CustomGame() {
  const lobby = useLobby();
  const registered = useAppState((s) => s.me?.registered);
  const form = useTimeForm('10', '0');
  const start = useStartForm();
  const [days, setDays] = useState<number | null>(null);
  const [color, setColor] = useState<ColorChoice>('random');
  const [mode, setMode] = useState<Mode>('rated');
  const [error, setError] = useState<string | null>(null);
  const submit = async (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    const submitter = (e.nativeEvent as SubmitEvent).submitter as HTMLButtonElement | null;
    const r = days === null ? form.read() : ({ ok: true, time: dailyTime(days, 'unlimited') } as const);
    const s = start.read();
    if (!r.ok || !s.ok) {
      setError(!r.ok ? r.error : !s.ok ? s.error : null);
      return;
    }
    setError(null);
    // From Position games are casual (docs/protocol.md): no "rated" choice for them.
    const rated = s.start.variant === 'fromPosition' ? false : ratedField(mode, registered);
    try {
      if (submitter?.value === 'friend') {
        const challenge = await lobby.createChallengeOrThrow(r.time, color, rated, s.start);
        navigate(`/challenge/${challenge.id}`);
      } else {
        await lobby.createSeekOrThrow(r.time, color, rated, s.start);
      }
    } catch (err) {
      setError((err as Error).message);
    }
  };
  return (
    <section className="panel" aria-labelledby="custom-title">
      <h2 id="custom-title">Custom game</h2>
      <form onSubmit={submit}>
        <DailyChoice id="custom-days" days={days} onChange={setDays} />
        {days === null && (
          <label className="check">
            <input type="checkbox" checked={form.unlimited} onChange={(e) => form.setUnlimited(e.target.checked)} />
            No clock
          </label>
        )}
        {days === null && !form.unlimited && <TimeFields idPrefix="custom" {...form} />}
        <VariantFields idPrefix="custom" form={start} withPosition withFen />
        <ColorPicker name="custom-color" value={color} onChange={setColor} />
        {start.variant !== 'fromPosition' && <ModePicker name="custom-mode" value={mode} onChange={setMode} registered={registered} />}
        {error && (
          <p className="form-error" role="alert">
            {error}
          </p>
        )}
        <div className="button-row">
          <button type="submit" name="action" value="seek" className="primary">
            Create seek
          </button>
          <button type="submit" name="action" value="friend">
            Challenge a friend
          </button>
        </div>
      </form>
    </section>
  );
}

function MyChallenges() {
  const lobby = useLobby();
  const challenges = useLobbyState((s) => s.challenges);
  const list = Object.values(challenges);
  if (list.length === 0) return null;
  return (
    <section className="panel" aria-labelledby="challenges-title">
      <h2 id="challenges-title">Your challenges</h2>
      <p className="hint">The game starts when they accept (send a link to a friend).</p>
      <ul className="plain-list">
        {list.map((c) => (
          <li key={c.id}>
            {c.to ? (
              <span>
                To {c.to.name}
                <BotBadge bot={c.to.bot} /> ({formatTimeControl(c.time)}
                {seekVariant(c) && `, ${seekVariant(c)}`}, {seekModeLabel(c)}, you play {c.color}):
                waiting for an answer{' '}
              </span>
            ) : (
              <ShareLink
                path={c.url ?? `/challenge/${c.id}`}
                label={`Challenge link (${formatTimeControl(c.time)}${seekVariant(c) && `, ${seekVariant(c)}`}, you play ${c.color})`}
              />
            )}
            <button type="button" onClick={() => lobby.cancelChallenge(c.id)}>
              Cancel challenge
            </button>
          </li>
        ))}
      </ul>
    </section>
  );
}

/** A direct challenge by name, to a person or a bot; the server's refusal is shown here. */
function ChallengePlayer() {
  const lobby = useLobby();
  const registered = useAppState((s) => s.me?.registered);
  const [name, setName] = useState('');
  const [preset, setPreset] = useState(formatTimeControl(PRESETS[3]));
  const [days, setDays] = useState<number | null>(null);
  const [color, setColor] = useState<ColorChoice>('random');
  const [mode, setMode] = useState<Mode>('casual');
  const start = useStartForm();
  const [error, setError] = useState<string | null>(null);
  const [sent, setSent] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    const time = dailyTime(days, presetTime(preset));
    setError(null);
    setSent(null);
    const s = start.read();
    if (!s.ok) {
      setError(s.error);
      return;
    }
    setBusy(true);
    try {
      const rated = s.start.variant === 'fromPosition' ? false : ratedField(mode, registered);
      const c = await lobby.challengeByName(name, time, color, rated, s.start);
      setSent(c.to?.name ?? name.trim());
    } catch (err) {
      setError((err as Error).message);
    } finally {
      setBusy(false);
    }
  };
  return (
    <section className="panel" aria-labelledby="challenge-name-title">
      <h2 id="challenge-name-title">Challenge a player</h2>
      <form onSubmit={submit} className="stack">
        <label htmlFor="challenge-name">Player or bot username</label>
        <input
          id="challenge-name"
          value={name}
          onChange={(e) => setName(e.target.value)}
          autoComplete="off"
          spellCheck={false}
        />
        <DailyChoice id="challenge-name-days" days={days} onChange={setDays} />
        {days === null && (
          <>
            <label htmlFor="challenge-name-time">Clock</label>
            <PresetSelect id="challenge-name-time" value={preset} onChange={setPreset} />
          </>
        )}
        <VariantFields idPrefix="challenge-name" form={start} withPosition withFen />
        <ColorPicker name="challenge-name-color" value={color} onChange={setColor} />
        {start.variant !== 'fromPosition' && (
          <ModePicker name="challenge-name-mode" value={mode} onChange={setMode} registered={registered} />
        )}
        {error && (
          <p className="form-error" role="alert">
            {error}
          </p>
        )}
        {sent && <p role="status">Challenge sent to {sent}: waiting for an answer.</p>}
        <button type="submit" className="primary" disabled={busy}>
          Send challenge
        </button>
      </form>
    </section>
  );
}

/** Challenges made to this player alone: accept (the game starts) or decline, with a reason. */
function IncomingChallenges() {
  const incoming = Object.values(useLobbyState((s) => s.incoming));
  if (incoming.length === 0) return null;
  return (
    <section className="panel" aria-labelledby="incoming-title">
      <h2 id="incoming-title">Challenges to you</h2>
      <ul className="plain-list">
        {incoming.map((c) => (
          <IncomingChallenge key={c.id} challenge={c} />
        ))}
      </ul>
    </section>
  );
}

/** The reasons a person may give for declining (docs/protocol.md), as the challenger reads them. */
const DECLINE_CHOICES: { value: DeclineReason | ''; label: string }[] = [
  { value: '', label: 'No reason' },
  { value: 'later', label: 'Not now' },
  { value: 'time_control', label: 'Not this time control' },
  { value: 'rated', label: 'Not a rated game' },
  { value: 'casual', label: 'Not a casual game' },
];

function IncomingChallenge({ challenge: c }: { challenge: Seek }) {
  const lobby = useLobby();
  const [reason, setReason] = useState<DeclineReason | ''>('');
  const yourColor = c.color === 'random' ? 'random' : c.color === 'white' ? 'black' : 'white';
  return (
    <li>
      {c.player.name}
      <BotBadge bot={c.player.bot} /> · {formatTimeControl(c.time)}
      {seekVariant(c) && ` · ${seekVariant(c)}`} · you play {yourColor} · {seekModeLabel(c)}
      <span className="button-row">
        <button type="button" className="primary" onClick={() => lobby.acceptChallenge(c.id)}>
          Accept
        </button>
        <select
          aria-label={`Reason to decline ${c.player.name}'s challenge`}
          value={reason}
          onChange={(e) => setReason(e.target.value as DeclineReason | '')}
        >
          {DECLINE_CHOICES.map((d) => (
            <option key={d.value} value={d.value}>
              {d.label}
            </option>
          ))}
        </select>
        <button type="button" onClick={() => lobby.declineChallenge(c.id, reason || undefined)}>
          Decline
        </button>
      </span>
    </li>
  );
}

function ComputerGame() {
  const lobby = useLobby();
  const [level, setLevel] = useState(1);
  const [color, setColor] = useState<ColorChoice>('random');
  const [preset, setPreset] = useState('5+0');
  const start = useStartForm();
  const [refusal, setRefusal] = useState<string | null>(null);
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    const time = presetTime(preset);
    setRefusal(null);
    const s = start.read();
    if (!s.ok) {
      setRefusal(s.error);
      return;
    }
    try {
      await lobby.playComputerOrThrow(level, time, color, s.start);
    } catch (err) {
      setRefusal((err as Error).message);
    }
  };
  return (
    <section className="panel" aria-labelledby="computer-title">
      <h2 id="computer-title">Play the computer</h2>
      <form onSubmit={submit}>
        <label htmlFor="computer-level">Level</label>
        <div className="level-row">
          <input
            id="computer-level"
            type="range"
            min={1}
            max={8}
            value={level}
            onChange={(e) => setLevel(Number(e.target.value))}
            aria-valuetext={`Level ${level}`}
          />
          <output htmlFor="computer-level">{level}</output>
        </div>
        <label htmlFor="computer-time">Time control</label>
        <PresetSelect id="computer-time" value={preset} onChange={setPreset} />
        <VariantFields idPrefix="computer" form={start} withFen />
        <ColorPicker name="computer-color" value={color} onChange={setColor} />
        {refusal && (
          <p className="form-error" role="alert">
            {refusal}
          </p>
        )}
        <button type="submit" className="primary">
          Play the computer
        </button>
      </form>
    </section>
  );
}
