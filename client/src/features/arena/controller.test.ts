/*
 * The arena controller against the fake socket with the server's message shapes
 * (docs/protocol.md, "Arena tournaments"): watching and unwatching, watching again after a
 * reconnect, the standings it follows, creating (the server's refusal for the form), joining,
 * pausing and their refusals as notices.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { clientOnFakeSocket } from '../../app/testClient';
import { welcome } from '../../net/fakeSocket';
import { arenaFull, place } from './fixtures';

function setup() {
  const { f, client } = clientOnFakeSocket();
  welcome(f.current, [], 'tok1', { id: 'a1B2c3D4e5F6', name: 'ann' });
  return { f, arena: client.arena, app: client.app };
}

beforeEach(() => vi.useFakeTimers());
afterEach(() => vi.useRealTimers());

describe('ArenaController', () => {
  it('watches an arena while a page holds it, and unwatches it when the last one leaves', () => {
    const { f, arena } = setup();
    const release = arena.watch('Tz7kQ2pX');
    const again = arena.watch('Tz7kQ2pX');
    const sent = f.current.sent.filter((m) => m.type === 'arena_watch');
    expect(sent).toHaveLength(1);
    expect(sent[0]).toMatchObject({ arena: 'Tz7kQ2pX' });
    f.current.receive({ type: 'arena', arena: arenaFull({ v: 3 }), id: sent[0].id });
    expect(arena.getState().arenas.Tz7kQ2pX.v).toBe(3);
    release();
    expect(f.current.last('arena_unwatch')).toBeUndefined();
    again();
    expect(f.current.last('arena_unwatch')).toMatchObject({ arena: 'Tz7kQ2pX' });
    expect(arena.getState().arenas.Tz7kQ2pX).toBeUndefined();
  });

  it('keeps no copy of an arena whose watch answer comes after its page left', () => {
    const { f, arena } = setup();
    const release = arena.watch('Tz7kQ2pX');
    const watch = f.current.last('arena_watch')!;
    release();
    f.current.receive({ type: 'arena', arena: arenaFull({ v: 3 }), id: watch.id });
    expect(arena.getState().arenas.Tz7kQ2pX).toBeUndefined();
  });

  it('watches it again after a reconnect and follows the standings pushed', () => {
    const { f, arena } = setup();
    arena.watch('Tz7kQ2pX');
    f.current.receive({ type: 'arena', arena: arenaFull({ v: 3, status: 'started' }), id: f.current.last('arena_watch')!.id });
    f.current.drop();
    vi.advanceTimersByTime(1000);
    welcome(f.current, [], 'tok1', { id: 'a1B2c3D4e5F6', name: 'ann' });
    const watch = f.current.last('arena_watch')!;
    expect(watch).toMatchObject({ arena: 'Tz7kQ2pX' });
    f.current.receive({ type: 'arena', arena: arenaFull({ v: 5, status: 'started', players: 1, standings: [place(1, 'a1B2c3D4e5F6', 'ann')] }), id: watch.id });
    f.current.receive({
      type: 'arena_standings', arena: 'Tz7kQ2pX', v: 8, status: 'started', players: 2,
      standings: [place(1, 'a1B2c3D4e5F6', 'ann', { score: 2, sheet: [2] }), place(2, 'b2C3d4E5f6G7', 'bob', { sheet: [0] })],
      me: place(1, 'a1B2c3D4e5F6', 'ann', { score: 2, sheet: [2] }),
    });
    expect(arena.getState().arenas.Tz7kQ2pX).toMatchObject({ v: 8, players: 2, me: { score: 2 } });
  });

  it('keeps the reason an arena cannot be watched for its page', async () => {
    const { f, arena } = setup();
    arena.watch('nope');
    f.current.receive({ type: 'error', code: 'ARENA_NOT_FOUND', message: 'no arena with this id', id: f.current.last('arena_watch')!.id });
    await vi.waitFor(() => expect(arena.getState().errors.nope).toBe('No arena with this id.'));
  });

  it('asks for the list while held, and again after a reconnect', () => {
    const { f, arena } = setup();
    const release = arena.holdList();
    expect(f.current.last('arena_list')).toBeDefined();
    f.current.receive({ type: 'arena_list', arenas: [arenaFull()], id: f.current.last('arena_list')!.id });
    expect(arena.getState().list).toHaveLength(1);
    f.current.drop();
    vi.advanceTimersByTime(1000);
    welcome(f.current, [], 'tok1', { id: 'a1B2c3D4e5F6', name: 'ann' });
    expect(f.current.last('arena_list')).toBeDefined();
    release();
    f.current.drop();
    vi.advanceTimersByTime(1000);
    welcome(f.current, [], 'tok1', { id: 'a1B2c3D4e5F6', name: 'ann' });
    expect(f.current.last('arena_list')).toBeUndefined();
  });

  it('creates an arena, and gives the form the server’s reason when it refuses', async () => {
    const { f, arena } = setup();
    const settings = { name: ' Blitz ', time: { minutes: 3, increment: 2 }, minutes: 30, startsIn: 60, rated: true };
    const made = arena.createOrThrow(settings);
    const sent = f.current.last('arena_create')!;
    expect(sent).toMatchObject({ name: 'Blitz', time: { minutes: 3, increment: 2 }, minutes: 30, starts_in: 60, rated: true });
    f.current.receive({ type: 'arena', arena: arenaFull({ id: 'New1', name: 'Blitz' }), id: sent.id });
    await expect(made).resolves.toMatchObject({ id: 'New1' });
    const refused = arena.createOrThrow({ ...settings, name: 'x' });
    f.current.receive({ type: 'error', code: 'ARENA_BAD_SETTINGS', message: 'the name must have 2 to 30 bytes', id: f.current.last('arena_create')!.id });
    await expect(refused).rejects.toThrow('The name must have 2 to 30 bytes.');
  });

  it('joins and pauses; refusals become notices', async () => {
    const { f, arena, app } = setup();
    arena.watch('Tz7kQ2pX');
    f.current.receive({ type: 'arena', arena: arenaFull({ v: 1 }), id: f.current.last('arena_watch')!.id });
    const joined = arena.join('Tz7kQ2pX');
    const me = place(1, 'a1B2c3D4e5F6', 'ann');
    f.current.receive({ type: 'arena', arena: arenaFull({ v: 2, players: 1, standings: [me], me }), id: f.current.last('arena_join')!.id });
    await joined;
    expect(arena.getState().arenas.Tz7kQ2pX.me).toMatchObject({ rank: 1 });
    const paused = arena.withdraw('Tz7kQ2pX');
    f.current.receive({ type: 'error', code: 'ARENA_FINISHED', message: 'the arena has finished', id: f.current.last('arena_withdraw')!.id });
    await expect(paused).resolves.toBeNull();
    expect(app.getState().notices.at(-1)).toMatchObject({ kind: 'error', text: 'The arena has finished.' });
  });
});
