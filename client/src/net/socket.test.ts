import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { fakeSockets, welcome } from './fakeSocket';
import { GameSocket, ServerError, type Identity } from './socket';

function setup(identity: Identity = { token: 'tok1' }) {
  const f = fakeSockets();
  const net = { up: true };
  let id = { ...identity };
  const forgot = vi.fn(() => {
    id = { ...id, token: null };
  });
  const socket = new GameSocket({
    url: 'ws://test/ws',
    identity: () => id,
    forgetToken: forgot,
    createSocket: f.create,
    random: () => 0.5,
    pingIntervalMs: 20000,
    pongTimeoutMs: 10000,
    requestTimeoutMs: 5000,
    networkUp: () => net.up,
  });
  return { f, socket, forgot, net };
}

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});

describe('GameSocket', () => {
  it('says hello with the token and goes online on welcome', () => {
    const { f, socket } = setup();
    const states: string[] = [];
    socket.onState((s) => states.push(s.status));
    const welcomes = vi.fn();
    socket.onWelcome(welcomes);
    socket.start();
    expect(f.current.url).toBe('ws://test/ws');
    f.current.open();
    expect(f.current.sent[0]).toMatchObject({ type: 'hello', protocol: 1, token: 'tok1' });
    welcome(f.current);
    expect(socket.state.status).toBe('online');
    expect(states).toEqual(['connecting', 'online']);
    expect(welcomes).toHaveBeenCalledOnce();
  });

  it('sends the guest name only when it has no token', () => {
    const { f, socket } = setup({ token: null, name: 'Ann' });
    socket.start();
    f.current.open();
    expect(f.current.sent[0]).toEqual({ type: 'hello', protocol: 1, name: 'Ann', id: expect.any(Number) });
  });

  it('matches replies to requests by id and passes every message to listeners', async () => {
    const { f, socket } = setup();
    const seen: string[] = [];
    socket.onMessage((m) => seen.push(m.type));
    socket.start();
    welcome(f.current);
    const reply = socket.request({ type: 'seek_create', time: 'unlimited' });
    const sent = f.current.last('seek_create')!;
    f.current.receive({ type: 'seek_added', seek: { id: 's1' }, id: 999 }); // not ours
    f.current.receive({ type: 'seek_added', seek: { id: 's2' }, id: sent.id });
    await expect(reply).resolves.toMatchObject({ type: 'seek_added', seek: { id: 's2' } });
    expect(seen).toEqual(['seek_added', 'seek_added']);
  });

  it('rejects with the server error, keeping code, message and field', async () => {
    const { f, socket } = setup();
    socket.start();
    welcome(f.current);
    const reply = socket.request({ type: 'move', game: 'g1', move: 'e2e5' });
    const sent = f.current.last('move')!;
    f.current.receive({ type: 'error', code: 'ILLEGAL_MOVE', message: 'the move is not legal', id: sent.id });
    const err = await reply.catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ServerError);
    expect(err).toMatchObject({ code: 'ILLEGAL_MOVE', message: 'the move is not legal' });
  });

  it('refuses requests at once while offline', async () => {
    const { socket } = setup();
    await expect(socket.request({ type: 'ping' })).rejects.toMatchObject({ code: 'OFFLINE' });
    expect(socket.send({ type: 'ping' })).toBe(false);
  });

  it('reconnects with growing delays and fails pending requests when the connection drops', async () => {
    const { f, socket } = setup();
    socket.start();
    welcome(f.current);
    const reply = socket.request({ type: 'live_games' });
    f.current.drop(1006);
    await expect(reply).rejects.toMatchObject({ code: 'CONNECTION_LOST' });
    expect(socket.state).toMatchObject({ status: 'offline', attempt: 1 });
    expect(f.sockets).toHaveLength(1);
    vi.advanceTimersByTime(249);
    expect(f.sockets).toHaveLength(1);
    vi.advanceTimersByTime(1);
    expect(f.sockets).toHaveLength(2); // after 250 ms
    f.current.drop(1006); // the server is still down
    vi.advanceTimersByTime(499);
    expect(f.sockets).toHaveLength(2);
    vi.advanceTimersByTime(1);
    expect(f.sockets).toHaveLength(3); // after 500 ms
    welcome(f.current);
    expect(socket.state).toMatchObject({ status: 'online', attempt: 0, lastError: null });
    // The next drop starts from the shortest delay again.
    f.current.drop(1001);
    expect(socket.state.lastError).toBe('the server is restarting');
    vi.advanceTimersByTime(250);
    expect(f.sockets).toHaveLength(4);
  });

  it('follows the browser’s network: gone at once when it is lost, back at once when it returns', () => {
    const { f, socket } = setup();
    socket.start();
    welcome(f.current);
    socket.networkLost();
    expect(socket.state).toMatchObject({ status: 'offline', lastError: 'the network is down' });
    // Retries keep failing while the network is down, the delays growing...
    for (let i = 0; i < 4; i++) {
      vi.advanceTimersByTime(10000);
      f.current.drop(1006);
    }
    expect(socket.state.lastError).toBe('the connection was lost');
    const before = f.sockets.length;
    // ... and when it returns, the next attempt starts at once, not after the delay.
    socket.retryNow();
    expect(f.sockets).toHaveLength(before + 1);
    // An attempt hanging from before is dropped for a fresh one.
    socket.retryNow();
    expect(f.sockets).toHaveLength(before + 2);
    welcome(f.current);
    expect(socket.state).toMatchObject({ status: 'online', attempt: 0 });
  });

  it('says the network is down whichever the browser reports first: the close or offline', () => {
    const { f, socket, net } = setup();
    socket.start();
    welcome(f.current);
    // The close comes first, with the network already gone.
    net.up = false;
    f.current.drop(1006);
    expect(socket.state).toMatchObject({ status: 'offline', lastError: 'the network is down' });
    // A close while the browser still thinks it is online says what the close says...
    net.up = true;
    vi.advanceTimersByTime(10000);
    f.current.drop(1006);
    expect(socket.state.lastError).toBe('the connection was lost');
    // ... until the browser's 'offline' follows it.
    socket.networkLost();
    expect(socket.state).toMatchObject({ status: 'offline', lastError: 'the network is down' });
  });

  it('continues as a new guest when the server forgot the token', () => {
    const { f, socket, forgot } = setup();
    socket.start();
    f.current.open();
    const hello = f.current.last('hello')!;
    f.current.receive({ type: 'error', code: 'BAD_TOKEN', message: 'unknown token', id: hello.id });
    expect(forgot).toHaveBeenCalledOnce();
    const again = f.current.last('hello')!;
    expect(again.token).toBeUndefined();
    expect(again.id).not.toBe(hello.id);
    welcome(f.current, [], 'tok2');
    expect(socket.state.status).toBe('online');
  });

  it('stops retrying when the player is banned, until asked to retry', () => {
    const { f, socket, forgot } = setup();
    socket.start();
    f.current.open();
    const hello = f.current.last('hello')!;
    f.current.receive({ type: 'error', code: 'BANNED', message: 'this player is banned from the server', id: hello.id });
    expect(forgot).not.toHaveBeenCalled(); // a ban is not a forgotten token: no new guest
    expect(socket.state).toMatchObject({ status: 'offline', retryAt: null });
    expect(socket.state.lastError).toContain('banned');
    vi.advanceTimersByTime(60000);
    expect(f.sockets).toHaveLength(1);
    socket.retryNow();
    expect(f.sockets).toHaveLength(2);
  });

  it('pings after a quiet spell and reconnects when nothing answers', () => {
    const { f, socket } = setup();
    socket.start();
    welcome(f.current);
    vi.advanceTimersByTime(20000);
    expect(f.current.last('ping')).toEqual({ type: 'ping' });
    f.current.receive({ type: 'pong' }); // alive
    vi.advanceTimersByTime(15000);
    expect(socket.state.status).toBe('online');
    vi.advanceTimersByTime(5000); // quiet again: ping
    vi.advanceTimersByTime(10000); // and no answer
    expect(f.sockets[0].closedWith).toBe(4001);
    expect(socket.state).toMatchObject({ status: 'offline', lastError: 'the server stopped answering' });
  });

  it('times out a request the server never answers', async () => {
    const { f, socket } = setup();
    socket.start();
    welcome(f.current);
    const reply = socket.request({ type: 'live_games' });
    vi.advanceTimersByTime(5000);
    await expect(reply).rejects.toMatchObject({ code: 'TIMEOUT' });
  });

  it('stops for good', () => {
    const { f, socket } = setup();
    socket.start();
    welcome(f.current);
    socket.stop();
    expect(f.current.closedWith).toBe(1000);
    vi.advanceTimersByTime(60000);
    expect(f.sockets).toHaveLength(1);
    expect(socket.state.status).toBe('offline');
  });
});
