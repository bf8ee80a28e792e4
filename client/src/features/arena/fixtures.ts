/*
 * Arena messages as the server sends them (docs/protocol.md, "Arena tournaments"), for the tests.
 */
import type { ArenaFull, ArenaStanding } from '../../net/protocol';

export function place(rank: number, id: string, name: string, over: Partial<ArenaStanding> = {}): ArenaStanding {
  return {
    rank,
    player: { id, name },
    rating: 1500,
    score: 0,
    games: 0,
    wins: 0,
    draws: 0,
    losses: 0,
    performance: 1500,
    fire: false,
    sheet: [],
    berserks: 0,
    ...over,
  };
}

export function arenaFull(over: Partial<ArenaFull> = {}): ArenaFull {
  return {
    id: 'Tz7kQ2pX',
    name: 'Hourly Blitz Arena',
    creator: 'a1B2c3D4e5F6',
    time: { minutes: 3, increment: 0 },
    rated: true,
    starts: 1795272714402,
    minutes: 57,
    ends: 1795276134402,
    status: 'created',
    players: 0,
    v: 0,
    standings: [],
    ...over,
  };
}
