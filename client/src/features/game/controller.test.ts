/*
 * The games controller on a fake socket: optimistic moves confirmed or taken back, resync of a
 * game whose events stop fitting, games that start for the player, and games read from the
 * archive when the server no longer holds them.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { clientOnFakeSocket } from '../../app/testClient';
import { playUci } from '../../lib/chess';
import { welcome } from '../../net/fakeSocket';
import { AFTER_E4, AFTER_E4_E5, fullGame, moveEvent, START } from '../../net/fixtures';

function setup() {
  const { f, client } = clientOnFakeSocket();
  return { f, games: client.game, app: client.app };
}

beforeEach(() => vi.useFakeTimers());
afterEach(() => vi.useRealTimers());

describe('GamesController', () => {
  it('shows a move at once and keeps it when the server confirms', async () => {
    const { f, games } = setup();
    welcome(f.current, [fullGame()]);
    const move = playUci(START, 'e2e4')!;
    const done = games.move('g1', move);
    expect(games.getState().pending.g1).toMatchObject({ ply: 1, fen: AFTER_E4 });
    const sent = f.current.last('move')!;
    expect(sent).toMatchObject({ game: 'g1', move: 'e2e4', ply: 0 });
    f.current.receive({ ...moveEvent(2, 1, 'e2e4', 'e4', AFTER_E4), id: sent.id });
    await expect(done).resolves.toBe(true);
    expect(games.getState().pending).toEqual({});
    expect(games.getState().games.g1.san).toEqual(['e4']);
  });

  it('sends the measured lag with moves, and marks premoves', async () => {
    const { f, games } = setup();
    welcome(f.current, [fullGame()]);
    // No measure yet: the first move says nothing of lag, and starts a ping to measure it.
    const first = games.move('g1', playUci(START, 'e2e4')!);
    const sent = f.current.last('move')!;
    expect(sent).not.toHaveProperty('lag');
    expect(sent).not.toHaveProperty('premove');
    const ping = f.current.last('ping')!;
    expect(ping.id).toBeDefined();
    vi.advanceTimersByTime(80); // an 80 ms round trip
    f.current.receive({ type: 'pong', id: ping.id });
    f.current.receive({ ...moveEvent(2, 1, 'e2e4', 'e4', AFTER_E4), id: sent.id });
    await first;
    f.current.receive(moveEvent(3, 2, 'e7e5', 'e5', AFTER_E4_E5));
    // A premove after that: the lag (half the round trip) and the mark; no new ping within 10 s.
    const pings = f.current.sent.filter((m) => m.type === 'ping').length;
    void games.move('g1', playUci(AFTER_E4_E5, 'g1f3')!, true);
    expect(f.current.last('move')).toMatchObject({ move: 'g1f3', lag: 40, premove: true });
    expect(f.current.sent.filter((m) => m.type === 'ping').length).toBe(pings);
  });

  it('takes a refused move back and says why', async () => {
    const { f, games, app } = setup();
    welcome(f.current, [fullGame()]);
    const done = games.move('g1', playUci(START, 'e2e4')!);
    const sent = f.current.last('move')!;
    f.current.receive({ type: 'error', code: 'NOT_YOUR_TURN', message: 'it is not your turn to move', id: sent.id });
    await expect(done).resolves.toBe(false);
    expect(games.getState().pending).toEqual({});
    expect(app.getState().notices.map((n) => n.text)).toEqual(['It is not your turn to move.']);
  });

  it('fetches a game again when its events stop fitting', () => {
    const { f, games } = setup();
    welcome(f.current, [fullGame()]);
    f.current.sent.length = 0;
    f.current.receive(moveEvent(3, 2, 'e7e5', 'e5', AFTER_E4_E5)); // ply 1 was missed
    expect(games.getState().games.g1.stale).toBe(true);
    const watch = f.current.last('watch')!;
    expect(watch).toMatchObject({ game: 'g1' });
    f.current.receive({
      type: 'game',
      id: watch.id,
      game: fullGame({ v: 3, moves: ['e2e4', 'e7e5'], san: ['e4', 'e5'], ply: 2, fen: AFTER_E4_E5 }),
    });
    expect(games.getState().games.g1).toMatchObject({ stale: false, ply: 2 });
  });

  it('tells listeners when a game starts for the player', () => {
    const { f, games } = setup();
    welcome(f.current);
    const started = vi.fn();
    games.onGameStarted(started);
    f.current.receive({ type: 'game_started', game: fullGame({ id: 'g7' }) });
    expect(started).toHaveBeenCalledWith('g7', false);
    expect(games.getState().games.g7).toBeDefined();
  });

  it('opens a game the server no longer holds from its archive', async () => {
    const { f, games } = setup();
    welcome(f.current);
    games.hold('old1');
    f.current.receive({ type: 'error', code: 'GAME_NOT_FOUND', message: 'no game with this id', id: f.current.last('watch')!.id });
    await vi.waitFor(() => expect(f.current.last('game_record')).toMatchObject({ game: 'old1' }));
    f.current.receive({
      type: 'game_record',
      id: f.current.last('game_record')!.id,
      game: {
        id: 'old1', status: 'ended', white: { id: 'p1', name: 'Ann' }, black: { id: 'p2', name: 'Ben' },
        time: 'unlimited', rated: false, category: null, result: '*', reason: 'aborted', winner: null,
        ply: 0, created_at: 1, ended_at: 2, moves: [], san: [],
      },
    });
    await vi.waitFor(() => expect(games.getState().games.old1?.archived).toBe(true));
    expect(games.getState().errors.old1).toBeUndefined();
  });

  it('reports a game neither in memory nor in the archive', async () => {
    const { f, games } = setup();
    welcome(f.current);
    games.hold('zz');
    f.current.receive({ type: 'error', code: 'GAME_NOT_FOUND', message: 'no game with this id', id: f.current.last('watch')!.id });
    await vi.waitFor(() => expect(f.current.last('game_record')).toBeDefined());
    f.current.receive({ type: 'error', code: 'UNKNOWN_TYPE', message: 'unknown message type', id: f.current.last('game_record')!.id });
    await vi.waitFor(() => expect(games.getState().errors.zz).toBe('No game with this id.'));
  });
});
