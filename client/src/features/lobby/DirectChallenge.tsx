/*
 * A direct challenge to one player (from their profile, while they are online): time control,
 * variant (a Chess960 number, a FEN), colour and, for accounts, rated or casual (From Position
 * is always casual); the server's refusal (a FEN it cannot start from, say) is shown here. They
 * get it at once and accept or decline it; while it waits, the panel says so and can cancel it.
 */
import { useState, type FormEvent } from 'react';
import { ColorPicker } from '../../components/ColorPicker';
import { ModePicker } from '../../components/ModePicker';
import { PresetSelect, presetTime } from '../../components/PresetSelect';
import { useAppState } from '../../hooks/useStore';
import { ratedField, type Mode } from '../../lib/mode';
import { formatTimeControl, PRESETS } from '../../lib/timeControl';
import type { ColorChoice, Profile } from '../../net/protocol';
import { useLobby, useLobbyState } from './hooks';
import { useStartForm, VariantFields } from './VariantFields';

/** Challenges this player directly: they get it at once and accept or decline it. */
export function DirectChallenge({ player }: { player: Profile }) {
  const lobby = useLobby();
  const [preset, setPreset] = useState(formatTimeControl(PRESETS[3]));
  const [color, setColor] = useState<ColorChoice>('random');
  const [mode, setMode] = useState<Mode>('casual');
  const start = useStartForm();
  const [error, setError] = useState<string | null>(null);
  const registered = useAppState((s) => s.me?.registered);
  const pending = useLobbyState((s) => Object.values(s.challenges).find((c) => c.to?.id === player.id));
  const send = async (e: FormEvent) => {
    e.preventDefault();
    const s = start.read();
    setError(s.ok ? null : s.error);
    if (!s.ok) return;
    const rated = s.start.variant === 'fromPosition' ? false : ratedField(mode, registered);
    try {
      await lobby.createChallengeOrThrow(presetTime(preset), color, rated, { ...s.start, player: player.id });
    } catch (err) {
      setError((err as Error).message);
    }
  };
  return (
    <section className="panel" aria-labelledby="challenge-player-title">
      <h2 id="challenge-player-title">Challenge {player.name}</h2>
      {pending ? (
        <p role="status">
          Waiting for {player.name} to answer ({formatTimeControl(pending.time)}){' '}
          <button type="button" onClick={() => lobby.cancelChallenge(pending.id)}>
            Cancel challenge
          </button>
        </p>
      ) : (
        <form onSubmit={send}>
          <label htmlFor="challenge-time">Time control</label>
          <PresetSelect id="challenge-time" value={preset} onChange={setPreset} unlimited={false} />
          <VariantFields idPrefix="challenge" form={start} withPosition withFen />
          <ColorPicker name="challenge-color" value={color} onChange={setColor} />
          {start.variant !== 'fromPosition' && <ModePicker name="challenge-mode" value={mode} onChange={setMode} registered={registered} />}
          {error && (
            <p className="form-error" role="alert">
              {error}
            </p>
          )}
          <button type="submit" className="primary">
            Send challenge
          </button>
        </form>
      )}
    </section>
  );
}
