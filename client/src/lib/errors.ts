/*
 * Server errors as sentences people read. The server's own message is already written for
 * people ("it is not your turn to move"); this adds a capital and a full stop, and words for the
 * client's own failure codes.
 */

export interface ErrorLike {
  code?: string;
  message?: string;
}

const LOCAL: Record<string, string> = {
  OFFLINE: 'Not connected to the server; reconnecting…',
  CONNECTION_LOST: 'The connection to the server was lost; reconnecting…',
  TIMEOUT: 'The server did not answer in time.',
};

export function readableError(err: unknown): string {
  const e = (err ?? {}) as ErrorLike;
  if (e.code && LOCAL[e.code]) return LOCAL[e.code];
  const text = (e.message ?? '').trim() || (e.code ? e.code.toLowerCase().replace(/_/g, ' ') : '');
  if (!text) return 'Something went wrong.';
  return sentence(text);
}

export function sentence(text: string): string {
  const t = text.trim();
  if (!t) return t;
  const first = t[0].toUpperCase() + t.slice(1);
  return /[.!?…]$/.test(first) ? first : `${first}.`;
}
