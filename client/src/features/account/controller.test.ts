/*
 * The account controller on a fake socket: logging in and out changes the identity (a new
 * connection with the new token), and errors come back in words.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { clientOnFakeSocket } from '../../app/testClient';
import { KEYS } from '../../lib/storage';
import { welcome } from '../../net/fakeSocket';

function setup() {
  const { f, storage, client } = clientOnFakeSocket();
  return { f, storage, account: client.account, app: client.app };
}

beforeEach(() => vi.useFakeTimers());
afterEach(() => vi.useRealTimers());

describe('AccountController', () => {
  it('logs in, keeps the session token and reconnects as the account', async () => {
    const { f, storage, account } = setup();
    welcome(f.current, [], 'guest-token');
    const done = account.login('ann', 'secret-password');
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
    const { f, storage, account, app } = setup();
    welcome(f.current, [], 'session-token', { id: 'a1', name: 'ann' });
    const done = account.logout();
    f.current.receive({ type: 'logged_out', id: f.current.last('logout')!.id });
    await expect(done).resolves.toBeNull();
    expect(storage.get(KEYS.token)).toBeNull();
    expect(app.getState().me).toBeNull();
    f.current.open();
    expect(f.current.last('hello')!.token).toBeUndefined();
  });

  it('says so when the server has no accounts', async () => {
    const { f, account } = setup();
    welcome(f.current);
    const done = account.register('ann', 'secret-password');
    f.current.receive({ type: 'error', code: 'UNKNOWN_TYPE', message: 'unknown message type', id: f.current.last('register')!.id });
    await expect(done).resolves.toBe('Accounts are not available on this server yet.');
    const taken = account.register('ann', 'secret-password');
    f.current.receive({ type: 'error', code: 'USERNAME_TAKEN', message: 'this username is taken', id: f.current.last('register')!.id });
    await expect(taken).resolves.toBe('This username is taken.');
  });
});
