import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { KEYS } from '../lib/storage';
import { playUci } from '../lib/chess';
import { welcome } from '../net/fakeSocket';
import { AFTER_E4, AFTER_E4_E5, fullGame, moveEvent, START } from './fixtures';
import { storeOnFakeSocket } from './testStore';

const setup = storeOnFakeSocket;

beforeEach(() => vi.useFakeTimers());
afterEach(() => vi.useRealTimers());

describe('Store', () => {
  it('keeps the token and resynchronises everything held after each welcome', () => {
    const { f, storage, store } = setup();
    const releaseLobby = store.holdLobby();
    const releaseGame = store.holdGame('g1');
    welcome(f.current, [], 'tok1');
    expect(storage.get(KEYS.token)).toBe('tok1');
    expect(f.current.last('lobby_subscribe')).toBeDefined();
    expect(f.current.last('watch')).toMatchObject({ game: 'g1' });

    f.current.drop();
    vi.advanceTimersByTime(300);
    f.current.open();
    expect(f.current.last('hello')).toMatchObject({ token: 'tok1' });
    welcome(f.current, [], 'tok1');
    expect(f.current.last('lobby_subscribe')).toBeDefined();
    expect(f.current.last('watch')).toMatchObject({ game: 'g1' });

    releaseGame();
    expect(f.current.last('unwatch')).toMatchObject({ game: 'g1' });
    releaseLobby();
    expect(f.current.last('lobby_unsubscribe')).toBeDefined();
  });

  it('shows a move at once and keeps it when the server confirms', async () => {
    const { f, store } = setup();
    welcome(f.current, [fullGame()]);
    const move = playUci(START, 'e2e4')!;
    const done = store.move('g1', move);
    expect(store.getState().pending.g1).toMatchObject({ ply: 1, fen: AFTER_E4 });
    const sent = f.current.last('move')!;
    expect(sent).toMatchObject({ game: 'g1', move: 'e2e4', ply: 0 });
    f.current.receive({ ...moveEvent(2, 1, 'e2e4', 'e4', AFTER_E4), id: sent.id });
    await expect(done).resolves.toBe(true);
    expect(store.getState().pending).toEqual({});
    expect(store.getState().games.g1.san).toEqual(['e4']);
  });

  it('takes a refused move back and says why', async () => {
    const { f, store } = setup();
    welcome(f.current, [fullGame()]);
    const done = store.move('g1', playUci(START, 'e2e4')!);
    const sent = f.current.last('move')!;
    f.current.receive({ type: 'error', code: 'NOT_YOUR_TURN', message: 'it is not your turn to move', id: sent.id });
    await expect(done).resolves.toBe(false);
    expect(store.getState().pending).toEqual({});
    expect(store.getState().notices.map((n) => n.text)).toEqual(['It is not your turn to move.']);
  });

  it('fetches a game again when its events stop fitting', () => {
    const { f, store } = setup();
    welcome(f.current, [fullGame()]);
    f.current.sent.length = 0;
    f.current.receive(moveEvent(3, 2, 'e7e5', 'e5', AFTER_E4_E5)); // ply 1 was missed
    expect(store.getState().games.g1.stale).toBe(true);
    const watch = f.current.last('watch')!;
    expect(watch).toMatchObject({ game: 'g1' });
    f.current.receive({
      type: 'game',
      id: watch.id,
      game: fullGame({ v: 3, moves: ['e2e4', 'e7e5'], san: ['e4', 'e5'], ply: 2, fen: AFTER_E4_E5 }),
    });
    expect(store.getState().games.g1).toMatchObject({ stale: false, ply: 2 });
  });

  it('tells listeners when a game starts for the player', () => {
    const { f, store } = setup();
    welcome(f.current);
    const started = vi.fn();
    store.onGameStarted(started);
    f.current.receive({ type: 'game_started', game: fullGame({ id: 'g7' }) });
    expect(started).toHaveBeenCalledWith('g7', false);
    expect(store.getState().games.g7).toBeDefined();
  });

  it('turns refusals into readable notices', async () => {
    const { f, store } = setup();
    welcome(f.current);
    const r = store.createSeek({ minutes: 5, increment: 0 }, 'random');
    const sent = f.current.last('seek_create')!;
    f.current.receive({ type: 'error', code: 'TOO_MANY_SEEKS', message: 'you have too many open seeks and challenges', id: sent.id });
    await expect(r).resolves.toBeNull();
    expect(store.getState().notices[0]).toMatchObject({ kind: 'error', text: 'You have too many open seeks and challenges.' });
  });

  it('challenges a player directly and says why it was declined', async () => {
    const { f, store } = setup();
    welcome(f.current);
    const r = store.createChallenge({ minutes: 3, increment: 2 }, 'random', 'b1');
    const sent = f.current.last('challenge_create')!;
    expect(sent).toMatchObject({ player: 'b1', time: { minutes: 3, increment: 2 } });
    const challenge = {
      id: 'c1',
      player: { id: 'p1', name: 'Ann' },
      to: { id: 'b1', name: 'RandBot', bot: true },
      rated: false,
      time: { minutes: 3, increment: 2 },
      color: 'random' as const,
      created: 0,
    };
    f.current.receive({ type: 'challenge_created', challenge, id: sent.id });
    await expect(r).resolves.toMatchObject({ id: 'c1' });
    f.current.receive({ type: 'challenge_removed', challenge: 'c1', reason: 'declined', decline_reason: 'time_control' });
    expect(store.getState().challenges).toEqual({});
    expect(store.getState().notices.at(-1)).toMatchObject({
      kind: 'info',
      text: 'RandBot declined your challenge: not this time control',
    });
    // A challenge to this player, declined from here.
    f.current.receive({ type: 'challenge_received', challenge: { ...challenge, id: 'c2', player: challenge.to } });
    void store.declineChallenge('c2');
    expect(f.current.last('challenge_decline')).toMatchObject({ challenge: 'c2' });
  });

  it('passes the computer’s refusal on in words', async () => {
    const { f, store } = setup();
    welcome(f.current);
    const r = store.playComputerOrThrow(1, { minutes: 5, increment: 0 }, 'white');
    const sent = f.current.last('computer_play')!;
    expect(sent).toMatchObject({ level: 1, color: 'white' });
    f.current.receive({
      type: 'error',
      code: 'COMPUTER_UNAVAILABLE',
      message: 'playing the computer is not available on this server yet',
      id: sent.id,
    });
    await expect(r).rejects.toThrow('Playing the computer is not available on this server yet.');
  });
});

describe('Store accounts', () => {
  it('logs in, keeps the session token and reconnects as the account', async () => {
    const { f, storage, store } = setup();
    welcome(f.current, [], 'guest-token');
    const done = store.login('ann', 'secret-password');
    const sent = f.current.last('login')!;
    expect(sent).toMatchObject({ username: 'ann', password: 'secret-password' });
    const first = f.current;
    first.receive({ type: 'session', token: 'session-token', player: { id: 'a1', name: 'ann', registered: true }, id: sent.id });
    await expect(done).resolves.toBeNull();
    expect(storage.get(KEYS.token)).toBe('session-token');
    expect(first.closedWith).toBe(1000);
    f.current.open();
    expect(f.current.last('hello')).toMatchObject({ token: 'session-token' });
  });

  it('logs out and continues as a new guest', async () => {
    const { f, storage, store } = setup();
    welcome(f.current, [], 'session-token', { id: 'a1', name: 'ann' });
    const done = store.logout();
    f.current.receive({ type: 'logged_out', id: f.current.last('logout')!.id });
    await expect(done).resolves.toBeNull();
    expect(storage.get(KEYS.token)).toBeNull();
    expect(store.getState().me).toBeNull();
    f.current.open();
    expect(f.current.last('hello')!.token).toBeUndefined();
  });

  it('says so when the server has no accounts', async () => {
    const { f, store } = setup();
    welcome(f.current);
    const done = store.register('ann', 'secret-password');
    f.current.receive({ type: 'error', code: 'UNKNOWN_TYPE', message: 'unknown message type', id: f.current.last('register')!.id });
    await expect(done).resolves.toBe('Accounts are not available on this server yet.');
    const taken = store.register('ann', 'secret-password');
    f.current.receive({ type: 'error', code: 'USERNAME_TAKEN', message: 'this username is taken', id: f.current.last('register')!.id });
    await expect(taken).resolves.toBe('This username is taken.');
  });

  it('opens a game the server no longer holds from its archive', async () => {
    const { f, store } = setup();
    welcome(f.current);
    store.holdGame('old1');
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
    await vi.waitFor(() => expect(store.getState().games.old1?.archived).toBe(true));
    expect(store.getState().gameErrors.old1).toBeUndefined();
  });

  it('reports a game neither in memory nor in the archive', async () => {
    const { f, store } = setup();
    welcome(f.current);
    store.holdGame('zz');
    f.current.receive({ type: 'error', code: 'GAME_NOT_FOUND', message: 'no game with this id', id: f.current.last('watch')!.id });
    await vi.waitFor(() => expect(f.current.last('game_record')).toBeDefined());
    f.current.receive({ type: 'error', code: 'UNKNOWN_TYPE', message: 'unknown message type', id: f.current.last('game_record')!.id });
    await vi.waitFor(() => expect(store.getState().gameErrors.zz).toBe('No game with this id.'));
  });
});
