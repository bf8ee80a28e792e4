import { describe, expect, it } from 'vitest';
import type { ServerMessage, ServerMessageOf } from '../../net/protocol';
import { arenaFull, place } from './fixtures';
import { arenaDropped, arenaReducers, initialArenaState, type ArenaState } from './state';
import { reduceWith } from '../../lib/feature';

const reduce = (s: ArenaState, msg: ServerMessage) => reduceWith(arenaReducers, s, msg, 0);

const ann = (over = {}) => place(1, 'a1B2c3D4e5F6', 'ann', over);
const bob = (over = {}) => place(2, 'b2C3d4E5f6G7', 'bob', over);

describe('arena reducers', () => {
  it('keeps the list and brings a listed arena up to date from its full state and standings', () => {
    let s = reduce(initialArenaState, { type: 'arena_list', arenas: [arenaFull()] });
    expect(s.list).toHaveLength(1);
    s = reduce(s, { type: 'arena', arena: arenaFull({ v: 1, players: 1, status: 'started', standings: [ann()] }) });
    expect(s.list![0]).toMatchObject({ players: 1, status: 'started' });
    expect(s.list![0]).not.toHaveProperty('standings');
    s = reduce(s, { type: 'arena_standings', arena: 'Tz7kQ2pX', v: 2, status: 'started', players: 2, standings: [ann(), bob()] });
    expect(s.list![0].players).toBe(2);
  });

  it('follows the standings by version and ignores stale ones', () => {
    let s = reduce(initialArenaState, { type: 'arena', arena: arenaFull({ v: 5, status: 'started', players: 2, standings: [ann(), bob()] }) });
    const won: ServerMessageOf<'arena_standings'> = {
      type: 'arena_standings',
      arena: 'Tz7kQ2pX',
      v: 9,
      status: 'started',
      players: 2,
      standings: [ann({ score: 2, games: 1, wins: 1, sheet: [2] }), bob({ games: 1, losses: 1, sheet: [0] })],
    };
    s = reduce(s, won);
    expect(s.arenas.Tz7kQ2pX.v).toBe(9);
    expect(s.arenas.Tz7kQ2pX.standings[0]).toMatchObject({ score: 2, sheet: [2] });
    // An older push (or the same version again) changes nothing.
    const older = reduce(s, { ...won, v: 7, standings: [] });
    expect(older).toBe(s);
    expect(reduce(s, { ...won, standings: [] })).toBe(s);
    // An older full state neither.
    expect(reduce(s, { type: 'arena', arena: arenaFull({ v: 6 }) })).toBe(s);
  });

  it('ignores standings of an arena it has no copy of', () => {
    const s = reduce(initialArenaState, { type: 'arena_standings', arena: 'zz', v: 3, status: 'started', players: 0, standings: [] });
    expect(s).toBe(initialArenaState);
  });

  it('takes the player’s own place and game from the standings, and clears them when absent', () => {
    let s = reduce(initialArenaState, { type: 'arena', arena: arenaFull({ v: 1, status: 'started', standings: [ann()], me: ann() }) });
    s = reduce(s, { type: 'arena_standings', arena: 'Tz7kQ2pX', v: 2, status: 'started', players: 2, standings: [ann({ playing: true }), bob({ playing: true })], me: ann({ playing: true }), game: 'Ab3dE5fG' });
    expect(s.arenas.Tz7kQ2pX).toMatchObject({ game: 'Ab3dE5fG', me: { rank: 1, playing: true } });
    // Its end: no game any more; the fire of a streak shows on the place.
    s = reduce(s, { type: 'arena_standings', arena: 'Tz7kQ2pX', v: 3, status: 'started', players: 2, standings: [ann({ score: 4, fire: true })], me: ann({ score: 4, fire: true }) });
    expect(s.arenas.Tz7kQ2pX.game).toBeUndefined();
    expect(s.arenas.Tz7kQ2pX.me).toMatchObject({ score: 4, fire: true });
  });

  it('keeps the podium once finished', () => {
    let s = reduce(initialArenaState, { type: 'arena', arena: arenaFull({ v: 1, status: 'started' }) });
    s = reduce(s, { type: 'arena_standings', arena: 'Tz7kQ2pX', v: 4, status: 'finished', players: 2, standings: [ann({ score: 2 }), bob()], podium: [ann({ score: 2 }), bob()] });
    expect(s.arenas.Tz7kQ2pX.status).toBe('finished');
    expect(s.arenas.Tz7kQ2pX.podium!.map((p) => p.player.name)).toEqual(['ann', 'bob']);
  });

  it('forgets an arena whose page closed', () => {
    const s = reduce(initialArenaState, { type: 'arena', arena: arenaFull() });
    expect(arenaDropped(s, 'Tz7kQ2pX').arenas).toEqual({});
    expect(arenaDropped(initialArenaState, 'x')).toBe(initialArenaState);
  });
});
