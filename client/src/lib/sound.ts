/*
 * Sounds for moves, captures, checks and the end of a game, synthesised with the Web Audio API
 * (short enveloped tones and filtered noise), so the project ships no audio files. Muted state
 * is kept in the browser; the volume is a player setting (features/settings) applied from the
 * outside. The audio context starts on the first user gesture, as browsers
 * require; before that, sounds are skipped silently.
 */
import { KEYS, type KeyValue } from './storage';

export type SoundKind = 'move' | 'capture' | 'check' | 'end' | 'notify';

type Ctx = AudioContext;

export class Sounds {
  private ctx: Ctx | null = null;
  private muted: boolean;
  private volume = 1;
  private readonly storage: KeyValue;
  private readonly listeners = new Set<() => void>();

  constructor(storage: KeyValue) {
    this.storage = storage;
    this.muted = storage.get(KEYS.muted) === '1';
  }

  isMuted = (): boolean => this.muted;

  subscribe = (l: () => void): (() => void) => {
    this.listeners.add(l);
    return () => this.listeners.delete(l);
  };

  setMuted(muted: boolean): void {
    this.muted = muted;
    this.storage.set(KEYS.muted, muted ? '1' : '0');
    for (const l of this.listeners) l();
  }

  /** The volume of every sound, 0 (silent) to 1 (full). */
  setVolume(volume: number): void {
    this.volume = Math.min(1, Math.max(0, volume));
  }

  getVolume = (): number => this.volume;

  /** Creates or resumes the audio context; call from a user gesture. */
  unlock(): void {
    if (typeof window === 'undefined' || !('AudioContext' in window)) return;
    if (!this.ctx) {
      try {
        this.ctx = new AudioContext();
      } catch {
        return;
      }
    }
    if (this.ctx.state === 'suspended') void this.ctx.resume();
  }

  play(kind: SoundKind): void {
    const ctx = this.ctx;
    const v = this.volume;
    if (this.muted || v === 0 || !ctx || ctx.state !== 'running') return;
    const t = ctx.currentTime + 0.005;
    switch (kind) {
      case 'move':
        knock(ctx, t, 0.6 * v);
        break;
      case 'capture':
        knock(ctx, t, 0.9 * v);
        knock(ctx, t + 0.06, 0.5 * v);
        break;
      case 'check':
        tone(ctx, t, 880, 0.09, 0.18 * v);
        tone(ctx, t + 0.1, 660, 0.12, 0.18 * v);
        break;
      case 'end':
        tone(ctx, t, 523.25, 0.35, 0.12 * v);
        tone(ctx, t, 659.25, 0.35, 0.1 * v);
        tone(ctx, t + 0.12, 783.99, 0.45, 0.1 * v);
        break;
      case 'notify':
        tone(ctx, t, 740, 0.12, 0.12 * v);
        break;
    }
  }
}

/** A wooden knock: a short burst of band-passed noise. */
function knock(ctx: Ctx, at: number, gain: number): void {
  const length = Math.floor(ctx.sampleRate * 0.05);
  const buffer = ctx.createBuffer(1, length, ctx.sampleRate);
  const data = buffer.getChannelData(0);
  for (let i = 0; i < length; i++) data[i] = (Math.random() * 2 - 1) * Math.pow(1 - i / length, 3);
  const src = ctx.createBufferSource();
  src.buffer = buffer;
  const filter = ctx.createBiquadFilter();
  filter.type = 'bandpass';
  filter.frequency.value = 1200;
  filter.Q.value = 1.5;
  const amp = ctx.createGain();
  amp.gain.value = gain;
  src.connect(filter).connect(amp).connect(ctx.destination);
  src.start(at);
}

/** A sine tone with a quick attack and exponential decay. */
function tone(ctx: Ctx, at: number, freq: number, duration: number, gain: number): void {
  const osc = ctx.createOscillator();
  osc.type = 'sine';
  osc.frequency.value = freq;
  const amp = ctx.createGain();
  amp.gain.setValueAtTime(0.0001, at);
  amp.gain.exponentialRampToValueAtTime(gain, at + 0.01);
  amp.gain.exponentialRampToValueAtTime(0.0001, at + duration);
  osc.connect(amp).connect(ctx.destination);
  osc.start(at);
  osc.stop(at + duration + 0.02);
}

/** Which sound a move makes, from its SAN. */
export function soundForSan(san: string): SoundKind {
  if (san.includes('+') || san.includes('#')) return 'check';
  if (san.includes('x')) return 'capture';
  return 'move';
}
