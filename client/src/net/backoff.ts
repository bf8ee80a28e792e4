/*
 * Reconnection delays: exponential backoff with a cap and random jitter, so that many clients
 * dropped at once (a server restart) do not all come back in the same instant.
 */

export interface BackoffOptions {
  /** Delay before the first retry. */
  initialMs: number;
  /** Longest delay. */
  maxMs: number;
  /** Growth per failed attempt. */
  factor: number;
  /** Fraction of the delay added or removed at random (0.2: +-20%). */
  jitter: number;
}

export const DEFAULT_BACKOFF: BackoffOptions = {
  initialMs: 250,
  maxMs: 8000,
  factor: 2,
  jitter: 0.2,
};

/**
 * The delay before retry number `attempt` (0 for the first retry). `random` returns a number in
 * [0, 1) (Math.random by default; tests pass a constant).
 */
export function backoffDelay(
  attempt: number,
  options: BackoffOptions = DEFAULT_BACKOFF,
  random: () => number = Math.random,
): number {
  const base = Math.min(options.maxMs, options.initialMs * Math.pow(options.factor, attempt));
  const spread = base * options.jitter * (random() * 2 - 1);
  return Math.max(0, Math.round(base + spread));
}
