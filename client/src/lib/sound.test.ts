// @vitest-environment jsdom
import { afterEach, describe, expect, it, vi } from 'vitest';
import { Sounds } from './sound';
import { KEYS, memoryStorage } from './storage';

/** Just enough of the Web Audio API to count what a sound builds. */
class FakeAudioContext {
  static made = 0;
  state = 'running';
  currentTime = 0;
  sampleRate = 8000;
  destination = {};
  constructor() {
    FakeAudioContext.made++;
  }
  resume() {
    return Promise.resolve();
  }
  private node() {
    const n = {
      connect: () => n,
      start: vi.fn(),
      stop: vi.fn(),
      gain: { value: 0, setValueAtTime: vi.fn(), exponentialRampToValueAtTime: vi.fn() },
      frequency: { value: 0 },
      Q: { value: 0 },
      type: '',
      buffer: null,
    };
    sources.push(n);
    return n;
  }
  createOscillator = () => this.node();
  createGain = () => this.node();
  createBiquadFilter = () => this.node();
  createBufferSource = () => this.node();
  createBuffer = (_c: number, length: number) => ({ getChannelData: () => new Float32Array(length) });
}

let sources: { start: ReturnType<typeof vi.fn> }[] = [];

afterEach(() => {
  sources = [];
  vi.unstubAllGlobals();
});

describe('Sounds', () => {
  it('plays only after a gesture unlocked audio, and never when muted', () => {
    vi.stubGlobal('AudioContext', FakeAudioContext);
    const storage = memoryStorage();
    const sounds = new Sounds(storage);
    sounds.play('move');
    expect(sources).toHaveLength(0); // no context before a gesture
    sounds.unlock();
    sounds.play('capture');
    const started = sources.filter((s) => s.start.mock.calls.length > 0);
    expect(started.length).toBeGreaterThan(0);
    sources = [];
    sounds.setMuted(true);
    sounds.play('check');
    expect(sources).toHaveLength(0);
    expect(storage.get(KEYS.muted)).toBe('1');
  });

  it('remembers the mute switch and tells listeners', () => {
    const storage = memoryStorage();
    storage.set(KEYS.muted, '1');
    const sounds = new Sounds(storage);
    expect(sounds.isMuted()).toBe(true);
    const changed = vi.fn();
    sounds.subscribe(changed);
    sounds.setMuted(false);
    expect(changed).toHaveBeenCalledOnce();
    expect(new Sounds(storage).isMuted()).toBe(false);
  });

  it('scales every sound by the volume; none at 0', () => {
    vi.stubGlobal('AudioContext', FakeAudioContext);
    const sounds = new Sounds(memoryStorage());
    sounds.unlock();
    const gainOf = () => (sources as unknown as { gain: { value: number } }[]).map((n) => n.gain.value).filter((g) => g > 0);
    sounds.play('move');
    const full = gainOf();
    sources = [];
    sounds.setVolume(0.5);
    sounds.play('move');
    expect(gainOf()).toEqual(full.map((g) => g * 0.5));
    sources = [];
    sounds.setVolume(0);
    sounds.play('capture');
    expect(sources).toHaveLength(0);
    sounds.setVolume(7);
    expect(sounds.getVolume()).toBe(1);
  });
});
