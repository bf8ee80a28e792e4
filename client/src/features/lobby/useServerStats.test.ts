/* The lobby's counts from /healthz: a node's own, or a site's sums. */
import { describe, expect, it } from 'vitest';
import { statsFrom } from './useServerStats';

describe('statsFrom', () => {
  it('reads a single server’s counts', () => {
    expect(statsFrom({ players_online: 3, games: 1 })).toEqual({ players: 3, games: 1 });
  });

  it('prefers the site’s sums on a node of several', () => {
    const body = { players_online: 0, games: 0, site: { players_online: 12, games: 5 } };
    expect(statsFrom(body)).toEqual({ players: 12, games: 5 });
  });

  it('gives nothing for a body without the figures', () => {
    expect(statsFrom({})).toBeNull();
  });
});
