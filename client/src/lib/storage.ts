/*
 * Small settings kept in the browser (the guest's token and name, mute, the player settings of
 * features/settings): localStorage when the
 * browser allows it, memory otherwise (private modes, disabled storage).
 */

export interface KeyValue {
  get(key: string): string | null;
  set(key: string, value: string | null): void;
}

export function memoryStorage(): KeyValue {
  const map = new Map<string, string>();
  return {
    get: (k) => map.get(k) ?? null,
    set: (k, v) => (v === null ? map.delete(k) : map.set(k, v)),
  };
}

export function browserStorage(): KeyValue {
  const fallback = memoryStorage();
  return {
    get(key) {
      try {
        return window.localStorage.getItem(key);
      } catch {
        return fallback.get(key);
      }
    },
    set(key, value) {
      try {
        if (value === null) window.localStorage.removeItem(key);
        else window.localStorage.setItem(key, value);
      } catch {
        fallback.set(key, value);
      }
    },
  };
}

export const KEYS = {
  token: 'chess.token',
  name: 'chess.name',
  muted: 'chess.muted',
  chatOff: 'chess.chatOff',
  settings: 'chess.settings',
} as const;
