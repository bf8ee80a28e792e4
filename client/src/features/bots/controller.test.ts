/*
 * Bot management against the fake socket (docs/bots.md): a bot created and its token handed
 * over once, the list, new tokens, revocation, and the errors in words.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { clientOnFakeSocket } from '../../app/testClient';
import { welcome } from '../../net/fakeSocket';

function setup() {
  const { f, client } = clientOnFakeSocket();
  welcome(f.current, [], 'tok1', { id: 'p1', name: 'Ann' });
  return { f, bots: client.bots, client };
}

beforeEach(() => vi.useFakeTimers());
afterEach(() => vi.useRealTimers());

describe('BotsController', () => {
  it('creates a bot and hands over its token once, from the reply', async () => {
    const { f, bots, client } = setup();
    const done = bots.create('RandBot');
    const sent = f.current.last('bot_create')!;
    expect(sent).toMatchObject({ username: 'RandBot' });
    f.current.receive({
      type: 'bot_created',
      bot: { id: 'b1', name: 'RandBot', registered: true, bot: true },
      token: 'v6h4vPkAAL1gbDfzuu8Zn40KY237meqc',
      id: sent.id,
    });
    await expect(done).resolves.toEqual({ name: 'RandBot', token: 'v6h4vPkAAL1gbDfzuu8Zn40KY237meqc' });
    // The token lives only in the caller's hands: nothing in the state or the storage keeps it.
    const { app, game, lobby, watch, analysis } = client;
    const states = [app, game, lobby, watch, analysis].map((c) => c.getState());
    expect(JSON.stringify(states)).not.toContain('v6h4vPkAAL1gbDfzuu8Zn40KY237meqc');
  });

  it('lists the account’s bots with their working tokens', async () => {
    const { f, bots } = setup();
    const list = bots.list();
    const owned = [{ id: 'b1', name: 'RandBot', bot: true, created_at: 1795271477973, tokens: 2 }];
    f.current.receive({ type: 'bots', bots: owned, id: f.current.last('bots_list')!.id });
    await expect(list).resolves.toEqual(owned);
    const refused = bots.list();
    f.current.receive({ type: 'error', code: 'ACCOUNT_REQUIRED', message: 'only an account may own bots', id: f.current.last('bots_list')!.id });
    await expect(refused).rejects.toThrow('Only an account may own bots.');
  });

  it('gives new tokens, revokes them, and words the errors', async () => {
    const { f, bots } = setup();
    const t = bots.newToken('RandBot');
    f.current.receive({ type: 'bot_token', username: 'RandBot', token: 'Zq1b', id: f.current.last('bot_token_create')!.id });
    await expect(t).resolves.toBe('Zq1b');
    const r = bots.revokeTokens('RandBot');
    f.current.receive({ type: 'bot_token_revoked', username: 'RandBot', id: f.current.last('bot_token_revoke')!.id });
    await expect(r).resolves.toBeUndefined();
    const missing = bots.revokeTokens('Other');
    f.current.receive({ type: 'error', code: 'BOT_NOT_FOUND', message: 'you own no bot of that name', id: f.current.last('bot_token_revoke')!.id });
    await expect(missing).rejects.toThrow('You own no bot of that name.');
    const guest = bots.create('Bot2');
    f.current.receive({ type: 'error', code: 'ACCOUNT_REQUIRED', message: 'only an account may do this', id: f.current.last('bot_create')!.id });
    await expect(guest).rejects.toThrow('Only an account may do this.');
  });
});
