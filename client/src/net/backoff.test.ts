import { describe, expect, it } from 'vitest';
import { backoffDelay, DEFAULT_BACKOFF } from './backoff';

describe('backoffDelay', () => {
  const mid = () => 0.5; // no jitter
  it('doubles from the initial delay up to the cap', () => {
    const delays = [0, 1, 2, 3, 4, 5, 6, 10].map((n) => backoffDelay(n, DEFAULT_BACKOFF, mid));
    expect(delays).toEqual([250, 500, 1000, 2000, 4000, 8000, 8000, 8000]);
  });
  it('spreads delays by the jitter fraction', () => {
    expect(backoffDelay(2, DEFAULT_BACKOFF, () => 0)).toBe(800);
    expect(backoffDelay(2, DEFAULT_BACKOFF, () => 0.999999)).toBe(1200);
  });
});
