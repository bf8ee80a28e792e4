/*
 * The settings controller: the defaults, the rules (the server's, mirrored), what is read from
 * the browser and from the server and how the two copies merge (the server's wins), and when a
 * change goes to the server (only on an account's connection, whose copy arrived).
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { clientOnFakeSocket } from '../../app/testClient';
import { KEYS, memoryStorage } from '../../lib/storage';
import { welcome } from '../../net/fakeSocket';
import {
  checkSettings,
  DEFAULT_SETTINGS,
  mergeSettings,
  parseSettings,
  readStoredSettings,
  validSetting,
  withDefaults,
} from './controller';

const ACCOUNT = { id: 'a1', name: 'Ann', registered: true };

function setup(stored?: object) {
  const storage = memoryStorage();
  if (stored) storage.set(KEYS.settings, JSON.stringify(stored));
  return clientOnFakeSocket(storage);
}

beforeEach(() => vi.useFakeTimers());
afterEach(() => vi.useRealTimers());

describe('settings rules', () => {
  it('has a default for every setting, each allowed by the rules', () => {
    for (const [k, v] of Object.entries(DEFAULT_SETTINGS)) expect(validSetting(k, v), k).toBe(true);
    expect(withDefaults({})).toEqual(DEFAULT_SETTINGS);
    expect(withDefaults({ board: 'blue', volume: 0 })).toEqual({ ...DEFAULT_SETTINGS, board: 'blue', volume: 0 });
  });

  it('allows the known keys with their values only, as the server does', () => {
    expect(validSetting('pieces', 'merida')).toBe(true);
    expect(validSetting('pieces', 'alpha')).toBe(false);
    expect(validSetting('board_size', 50)).toBe(true);
    expect(validSetting('board_size', 49)).toBe(false);
    expect(validSetting('board_size', 75.5)).toBe(false);
    expect(validSetting('volume', '50')).toBe(false);
    expect(validSetting('zen', 1)).toBe(false);
    expect(validSetting('auto_queen', 'always')).toBe(true);
    expect(validSetting('colour', 'red')).toBe(false);
    expect(checkSettings({ board: 'green', confirm_move: true })).toBeNull();
    expect(checkSettings({ board: 'green', colour: 'red' })).toBe('colour');
    expect(checkSettings({ animation: 'instant' })).toBe('animation');
    expect(checkSettings(['board'])).toBe('settings');
    expect(checkSettings({ board: 'x'.repeat(1100) })).toBe('settings');
  });

  it('keeps what is allowed of an untrusted copy and drops the rest', () => {
    expect(parseSettings({ board: 'grey', old: 1, volume: 500, zen: false })).toEqual({ board: 'grey', zen: false });
    expect(parseSettings(null)).toEqual({});
    expect(parseSettings('board')).toEqual({});
    expect(parseSettings([1])).toEqual({});
  });

  it('merges the two copies: the server wins where both have a key', () => {
    expect(mergeSettings({ board: 'blue', zen: true }, { board: 'green', volume: 10 })).toEqual({
      board: 'green',
      zen: true,
      volume: 10,
    });
    expect(mergeSettings({ board: 'blue' }, {})).toEqual({ board: 'blue' });
  });
});

describe('SettingsController', () => {
  it('starts from the browser copy, ignoring a damaged one', () => {
    expect(setup({ board: 'purple', bogus: true }).client.settings.getState().settings.board).toBe('purple');
    const c = setup();
    c.storage.set(KEYS.settings, '{not json');
    expect(readStoredSettings(c.storage)).toEqual({});
  });

  it("keeps a guest's changes in the browser only", () => {
    const { f, storage, client } = setup();
    welcome(f.current);
    client.settings.change({ pieces: 'merida', board_size: 80 });
    expect(client.settings.getState().settings).toMatchObject({ pieces: 'merida', board_size: 80 });
    expect(JSON.parse(storage.get(KEYS.settings)!)).toEqual({ pieces: 'merida', board_size: 80 });
    expect(f.current.last('settings_set')).toBeUndefined();
    expect(client.settings.getState().synced).toBe(false);
  });

  it("takes an account's server copy over the browser's, then saves changes to both", () => {
    const { f, storage, client } = setup({ board: 'blue', zen: true });
    welcome(f.current, [], 'tok', ACCOUNT);
    f.current.receive({ type: 'settings', settings: { board: 'green', theme: 'dark', unknown: 1 } });
    const s = client.settings.getState();
    expect(s.synced).toBe(true);
    expect(s.set).toEqual({ board: 'green', zen: true, theme: 'dark' });
    expect(JSON.parse(storage.get(KEYS.settings)!)).toEqual(s.set);

    client.settings.change({ confirm_move: true });
    const sent = f.current.last('settings_set')!;
    expect(sent.settings).toEqual({ board: 'green', zen: true, theme: 'dark', confirm_move: true });
    // The reply (with the request's id) changes nothing, even when a change came since.
    client.settings.change({ volume: 20 });
    f.current.receive({ type: 'settings', settings: sent.settings, id: sent.id });
    expect(client.settings.getState().settings.volume).toBe(20);

    client.settings.resetAll();
    expect(f.current.last('settings_set')!.settings).toEqual({});
    expect(client.settings.getState().settings).toEqual(DEFAULT_SETTINGS);
  });

  it('saves the changes of a guest who registered on this connection', () => {
    const { f, client } = setup({ zen: true });
    welcome(f.current);
    client.settings.change({ board: 'blue' });
    expect(f.current.last('settings_set')).toBeUndefined();
    f.current.receive({ type: 'registered', player: { ...client.app.getState().me!, registered: true } });
    client.settings.change({ pieces: 'wikimedia' });
    expect(f.current.last('settings_set')!.settings).toEqual({ zen: true, board: 'blue', pieces: 'wikimedia' });
  });

  it('sends a change made while disconnected after the reconnect, over the server copy', async () => {
    const { f, client } = setup();
    welcome(f.current, [], 'tok', ACCOUNT);
    f.current.receive({ type: 'settings', settings: { board: 'grey' } });
    const first = f.current;
    first.drop(1006);
    client.settings.change({ board: 'blue' });
    await vi.advanceTimersByTimeAsync(0);
    expect(client.app.getState().notices).toEqual([]); // no error: it waits for the reconnect
    await vi.advanceTimersByTimeAsync(30000);
    expect(f.current).not.toBe(first);
    welcome(f.current, [], 'tok', ACCOUNT);
    f.current.receive({ type: 'settings', settings: { board: 'grey' } });
    expect(client.settings.getState().settings.board).toBe('blue');
    const sent = f.current.last('settings_set')!;
    expect(sent.settings).toEqual({ board: 'blue' });
    f.current.receive({ type: 'settings', settings: sent.settings, id: sent.id });
    await vi.advanceTimersByTimeAsync(0);
    // Saved: the next server copy wins again.
    f.current.receive({ type: 'settings', settings: { board: 'green' } });
    expect(client.settings.getState().settings.board).toBe('green');
  });

  it('says so when the server refuses the settings', async () => {
    const { f, client } = setup();
    welcome(f.current, [], 'tok', ACCOUNT);
    f.current.receive({ type: 'settings', settings: {} });
    client.settings.change({ zen: true });
    const sent = f.current.last('settings_set')!;
    f.current.receive({ type: 'error', code: 'STORE_UNAVAILABLE', message: 'the database cannot serve this request now', id: sent.id });
    await vi.advanceTimersByTimeAsync(0);
    expect(client.app.getState().notices.map((n) => n.text).join()).toMatch(/not saved on the server/);
    expect(client.settings.getState().settings.zen).toBe(true); // kept in the browser
  });

  it('stops saving to the server when the identity changes (log out)', async () => {
    const { f, client } = setup();
    welcome(f.current, [], 'tok', ACCOUNT);
    f.current.receive({ type: 'settings', settings: { board: 'grey' } });
    client.app.switchIdentity(null);
    expect(client.settings.getState()).toMatchObject({ synced: false, set: { board: 'grey' } });
    welcome(f.current);
    client.settings.change({ board: 'blue' });
    expect(f.current.last('settings_set')).toBeUndefined();
  });
});
