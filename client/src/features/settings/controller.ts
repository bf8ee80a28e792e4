/*
 * Player settings, as lichess players expect them: the board's colours and pieces, the site's
 * theme, the board's size, coordinates, animation speed, move confirmation, auto-queen, the
 * sounds' volume and zen mode.
 *
 * The settings are kept in the browser (localStorage, KEYS.settings) for everyone and, for
 * accounts, on the server too (settings_set; the server sends its copy after every welcome of an
 * account, docs/protocol.md "Player settings"). The server's copy wins over the browser's when
 * it arrives (a key it lacks keeps the browser's value); a change made while the player is an
 * account (its server copy arrived, or it registered on this connection) is saved to both, the
 * whole set each time. A change the server did not get (made while the connection was down)
 * wins over the server's copy when the same account reconnects, and is sent again. Guests (and
 * bots) keep them in the browser only.
 *
 * What is stored is the keys the player set (PlayerSettings: every key optional); what pages use
 * is those with the defaults filled in (Settings). The rules (the keys and what each allows) are
 * the server's too (server/src/app/prefs.c): checkSettings says what the server would refuse.
 */
import type { Feature, FeatureContext, Handlers } from '../../lib/feature';
import { readableError } from '../../lib/errors';
import { KEYS, type KeyValue } from '../../lib/storage';
import { Store } from '../../lib/store';
import type { PlayerSettings, ServerMessageOf } from '../../net/protocol';

/** Every setting, with its value (the defaults filled in). */
export type Settings = Required<PlayerSettings>;
export type SettingKey = keyof Settings;

export type BoardTheme = Settings['board'];
export type PieceSetId = Settings['pieces'];
export type SiteTheme = Settings['theme'];
export type AnimationSpeed = Settings['animation'];

export const DEFAULT_SETTINGS: Settings = {
  board: 'brown',
  pieces: 'cburnett',
  theme: 'system',
  board_size: 100,
  coordinates: true,
  animation: 'normal',
  confirm_move: false,
  auto_queen: 'never',
  volume: 70,
  zen: false,
};

/** The words a word setting takes, in the order the settings page offers them. */
export const SETTING_WORDS = {
  board: ['brown', 'blue', 'green', 'purple', 'grey'],
  pieces: ['cburnett', 'merida', 'wikimedia'],
  theme: ['system', 'light', 'dark'],
  animation: ['none', 'fast', 'normal', 'slow'],
  auto_queen: ['always', 'never'],
} as const satisfies { [K in SettingKey]?: readonly Settings[K][] };

/** The range of a number setting. */
export const SETTING_RANGES = {
  board_size: { min: 50, max: 100 },
  volume: { min: 0, max: 100 },
} as const satisfies { [K in SettingKey]?: { min: number; max: number } };

const BOOLEAN_SETTINGS: readonly SettingKey[] = ['coordinates', 'confirm_move', 'zen'];

/** The server's limit on the settings as compact JSON. */
export const SETTINGS_MAX_BYTES = 1024;

/** The squares' colours of each board theme (lichess's flat boards). */
export const BOARD_COLORS: Record<BoardTheme, { light: string; dark: string }> = {
  brown: { light: '#f0d9b5', dark: '#b58863' },
  blue: { light: '#dee3e6', dark: '#8ca2ad' },
  green: { light: '#ffffdd', dark: '#86a666' },
  purple: { light: '#9f90b0', dark: '#7d4a8d' },
  grey: { light: '#b9b9b9', dark: '#8d8d8d' },
};

/** How long a piece takes to move, per animation speed. */
export const ANIMATION_MS: Record<AnimationSpeed, number> = { none: 0, fast: 120, normal: 200, slow: 400 };

/** Whether `value` is allowed for `key` (false for a key that is no setting). */
export function validSetting(key: string, value: unknown): boolean {
  if (key in SETTING_WORDS) return (SETTING_WORDS[key as keyof typeof SETTING_WORDS] as readonly unknown[]).includes(value);
  if (key in SETTING_RANGES) {
    const r = SETTING_RANGES[key as keyof typeof SETTING_RANGES];
    return typeof value === 'number' && Number.isInteger(value) && value >= r.min && value <= r.max;
  }
  return (BOOLEAN_SETTINGS as readonly string[]).includes(key) && typeof value === 'boolean';
}

/** The settings of an untrusted value (stored text, a message): the known keys with allowed
 * values; anything else is dropped (an older or newer client may have written it). */
export function parseSettings(value: unknown): PlayerSettings {
  const out: Record<string, unknown> = {};
  if (value && typeof value === 'object' && !Array.isArray(value)) {
    for (const [k, v] of Object.entries(value)) if (validSetting(k, v)) out[k] = v;
  }
  return out as PlayerSettings;
}

/** What the server would say of these settings: null when it takes them, else the key it
 * names (as BAD_SETTINGS' field: "settings" when they are no object or too large). */
export function checkSettings(value: unknown): string | null {
  if (!value || typeof value !== 'object' || Array.isArray(value)) return 'settings';
  if (new TextEncoder().encode(JSON.stringify(value)).length > SETTINGS_MAX_BYTES) return 'settings';
  for (const [k, v] of Object.entries(value)) if (!validSetting(k, v)) return k;
  return null;
}

/** Every setting: the ones set, the defaults for the others. */
export function withDefaults(set: PlayerSettings): Settings {
  return { ...DEFAULT_SETTINGS, ...set };
}

/** The browser's copy and the server's, together: the server's wins where both have a key. */
export function mergeSettings(browser: PlayerSettings, server: PlayerSettings): PlayerSettings {
  return { ...browser, ...server };
}

/** The settings kept in this browser. */
export function readStoredSettings(storage: KeyValue): PlayerSettings {
  const text = storage.get(KEYS.settings);
  if (!text) return {};
  try {
    return parseSettings(JSON.parse(text));
  } catch {
    return {};
  }
}

export interface SettingsState {
  /** What the player set (the defaults are not stored). */
  set: PlayerSettings;
  /** Every setting, the defaults filled in: what pages use. */
  settings: Settings;
  /** The server's copy arrived on this connection (an account's). */
  synced: boolean;
}

function stateOf(set: PlayerSettings, synced: boolean): SettingsState {
  return { set, settings: withDefaults(set), synced };
}

export class SettingsController extends Store<SettingsState> implements Feature {
  readonly handlers: Handlers = {
    // After an account's welcome. Replies to settings_set (with an id) carry what this browser
    // sent: taking them could undo a change made since.
    settings: (msg: ServerMessageOf<'settings'>) => {
      if (msg.id === undefined) this.fromServer(msg.settings);
    },
  };
  private readonly ctx: FeatureContext;
  private readonly storage: KeyValue;
  /** The last change sent to the server, counted; and whether it has not been taken yet. */
  private saves = 0;
  private unsaved = false;

  constructor(ctx: FeatureContext, storage: KeyValue) {
    super(stateOf(readStoredSettings(storage), false));
    this.ctx = ctx;
    this.storage = storage;
  }

  /** The server's copy: it wins over the browser's, which keeps the result; unless this
   * account's last change has not reached the server (then it goes there now). */
  fromServer(server: PlayerSettings): void {
    if (this.unsaved) {
      this.set(stateOf(this.getState().set, true));
      this.save(this.getState().set);
      return;
    }
    const set = mergeSettings(this.getState().set, parseSettings(server));
    this.keep(set);
    this.set(stateOf(set, true));
  }

  /** Changes settings: kept in the browser, and saved on the server for an account. */
  change(patch: Partial<Settings>): void {
    const set = parseSettings({ ...this.getState().set, ...patch });
    this.keep(set);
    this.set(stateOf(set, this.getState().synced));
    this.save(set);
  }

  /** Every setting back to its default (for an account, on the server too). */
  resetAll(): void {
    this.keep({});
    this.set(stateOf({}, this.getState().synced));
    this.save({});
  }

  /** Whether the server keeps this player's settings: an account's (not a guest's or a bot's). */
  onServer(): boolean {
    const me = this.ctx.session.getState().me;
    return this.getState().synced || (me?.registered === true && !me.bot);
  }

  /** A new identity: its server copy (if it is an account) comes after its welcome. */
  reset(): void {
    this.unsaved = false;
    this.saves++; // answers to the old identity's changes are not this one's
    if (this.getState().synced) this.set(stateOf(this.getState().set, false));
  }

  private keep(set: PlayerSettings): void {
    this.storage.set(KEYS.settings, JSON.stringify(set));
  }

  /** An account's settings, saved on the server. Not connected: sent after the reconnect
   * (fromServer); another failure becomes a notice. */
  private save(set: PlayerSettings): void {
    if (!this.onServer()) return;
    const seq = ++this.saves;
    this.unsaved = true;
    this.ctx.request({ type: 'settings_set', settings: set }).then(
      () => {
        if (seq === this.saves) this.unsaved = false;
      },
      (err: { code?: string }) => {
        if (seq !== this.saves) return;
        if (err.code !== 'OFFLINE') {
          this.unsaved = false;
          this.ctx.notify(`Your settings were not saved on the server: ${readableError(err)}`);
        }
      },
    );
  }
}
