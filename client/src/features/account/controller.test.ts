/*
 * The account controller on a fake socket: logging in and out changes the identity (a new
 * connection with the new token), and errors come back in words; an account changes its
 * password, lists and revokes its sessions, creates, lists and revokes its API access tokens,
 * and deletes itself (a new guest afterwards).
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

  it('changes the password, with the refusals in words', async () => {
    const { f, account, app } = setup();
    welcome(f.current, [], 'session-token', { id: 'a1', name: 'ann' });
    const wrong = account.changePassword('guess', 'battery staple horse');
    const sent = f.current.last('password_change')!;
    expect(sent).toMatchObject({ current: 'guess', new: 'battery staple horse' });
    f.current.receive({ type: 'error', code: 'PASSWORD_MISMATCH', message: "the password is not this account's", id: sent.id });
    await expect(wrong).resolves.toBe('Wrong password.');
    const weak = account.changePassword('secret-password', 'short');
    f.current.receive({ type: 'error', code: 'PASSWORD_INVALID', message: 'a password has 8 to 128 bytes', id: f.current.last('password_change')!.id });
    await expect(weak).resolves.toBe('A password has 8 to 128 characters.');
    const done = account.changePassword('secret-password', 'battery staple horse');
    const first = f.current;
    first.receive({ type: 'password_changed', id: first.last('password_change')!.id });
    await expect(done).resolves.toBeNull();
    // The same connection and identity go on; the others were logged out by the server.
    expect(f.current).toBe(first);
    expect(first.closedWith).toBeNull();
    expect(app.getState().notices.at(-1)?.text).toMatch(/other sessions are logged out/);
  });

  it('lists the sessions and logs one or all of the others out', async () => {
    const { f, account } = setup();
    welcome(f.current, [], 'session-token', { id: 'a1', name: 'ann' });
    const listed = account.sessions();
    const sessions = [
      { id: '3f9a0c1d2e4b5a69', created_at: 1, last_seen_at: 2, current: true },
      { id: 'b71e05d2c4a8f310', created_at: 3, last_seen_at: null, current: false },
    ];
    f.current.receive({ type: 'sessions', sessions, id: f.current.last('sessions_list')!.id });
    await expect(listed).resolves.toEqual(sessions);
    const one = account.revokeSession('b71e05d2c4a8f310');
    expect(f.current.last('session_revoke')).toMatchObject({ session: 'b71e05d2c4a8f310' });
    f.current.receive({ type: 'session_revoked', session: 'b71e05d2c4a8f310', id: f.current.last('session_revoke')!.id });
    await expect(one).resolves.toBeNull();
    const gone = account.revokeSession('0000000000000000');
    f.current.receive({ type: 'error', code: 'SESSION_NOT_FOUND', message: 'none of your sessions has this id', id: f.current.last('session_revoke')!.id });
    await expect(gone).resolves.toBe('None of your sessions has this id.');
    const all = account.revokeOtherSessions();
    f.current.receive({ type: 'sessions_revoked', id: f.current.last('sessions_revoke_all')!.id });
    await expect(all).resolves.toBeNull();
    const guest = account.sessions();
    f.current.receive({ type: 'error', code: 'ACCOUNT_REQUIRED', message: 'only a registered account (not a guest or a bot) may do that', id: f.current.last('sessions_list')!.id });
    await expect(guest).rejects.toThrow('Only a registered account (not a guest or a bot) may do that.');
  });

  it('creates, lists and revokes API access tokens, with the refusals in words', async () => {
    const { f, account } = setup();
    welcome(f.current, [], 'session-token', { id: 'a1', name: 'ann' });
    const info = { id: '8c41d0e9a7b2f356', description: 'my app', scopes: 'challenge:read,board:play', created_at: 5, last_used_at: null };
    const made = account.createApiToken('my app', ['challenge:read', 'board:play']);
    const sent = f.current.last('api_token_create')!;
    expect(sent).toMatchObject({ description: 'my app', scopes: 'challenge:read,board:play' });
    f.current.receive({ type: 'api_token_created', token: 'k3Pq9ZrT0bWm5xYc2LnV8dHs4FgJ1uAe', info, id: sent.id });
    await expect(made).resolves.toEqual({ token: 'k3Pq9ZrT0bWm5xYc2LnV8dHs4FgJ1uAe', info });
    const none = account.createApiToken('no scopes', []);
    expect(f.current.last('api_token_create')).toMatchObject({ description: 'no scopes', scopes: '' });
    f.current.receive({ type: 'error', code: 'TOO_MANY_TOKENS', message: 'you have as many API access tokens as an account may; revoke one first', id: f.current.last('api_token_create')!.id });
    await expect(none).rejects.toThrow('You have as many API access tokens as an account may; revoke one first.');
    const blank = account.createApiToken(' ', []);
    f.current.receive({ type: 'error', code: 'BAD_FIELD', message: 'a field is missing, of the wrong type or out of range', field: 'description', id: f.current.last('api_token_create')!.id });
    await expect(blank).rejects.toThrow('A description has 1 to 100 characters.');

    const listed = account.apiTokens();
    f.current.receive({ type: 'api_tokens', tokens: [info], id: f.current.last('api_tokens_list')!.id });
    await expect(listed).resolves.toEqual([info]);
    const revoked = account.revokeApiToken(info.id);
    expect(f.current.last('api_token_revoke')).toMatchObject({ token_id: info.id });
    f.current.receive({ type: 'api_token_revoked', token_id: info.id, id: f.current.last('api_token_revoke')!.id });
    await expect(revoked).resolves.toBeNull();
    const gone = account.revokeApiToken(info.id);
    f.current.receive({ type: 'error', code: 'TOKEN_NOT_FOUND', message: 'none of your API access tokens has this id', id: f.current.last('api_token_revoke')!.id });
    await expect(gone).resolves.toBe('None of your API access tokens has this id.');
    const guest = account.apiTokens();
    f.current.receive({ type: 'error', code: 'ACCOUNT_REQUIRED', message: 'only a registered account (not a guest or a bot) may do that', id: f.current.last('api_tokens_list')!.id });
    await expect(guest).rejects.toThrow('Only a registered account (not a guest or a bot) may do that.');
  });

  it('deletes the account and continues as a new guest; a refusal keeps the identity', async () => {
    const { f, storage, account, app } = setup();
    welcome(f.current, [], 'session-token', { id: 'a1', name: 'ann' });
    const playing = account.deleteAccount('secret-password');
    expect(f.current.last('account_delete')).toMatchObject({ password: 'secret-password' });
    f.current.receive({ type: 'error', code: 'ACCOUNT_IN_GAME', message: 'the account or one of its bots is playing: finish or abort those games first', id: f.current.last('account_delete')!.id });
    await expect(playing).resolves.toMatch(/^The account or one of its bots is playing/);
    expect(storage.get(KEYS.token)).toBe('session-token');
    const done = account.deleteAccount('secret-password');
    const first = f.current;
    first.receive({ type: 'account_deleted', id: first.last('account_delete')!.id });
    await expect(done).resolves.toBeNull();
    expect(storage.get(KEYS.token)).toBeNull();
    expect(first.closedWith).toBe(1000);
    expect(app.getState().notices.at(-1)?.text).toBe('Your account is deleted.');
    f.current.open();
    expect(f.current.last('hello')!.token).toBeUndefined();
  });
});
