/*
 * The store's direct challenges by name, rated or casual seeks, and bot management, against the
 * fake socket with the server's message shapes (docs/protocol.md).
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { welcome } from '../net/fakeSocket';
import { storeOnFakeSocket } from './testStore';

function setup() {
  const { f, store } = storeOnFakeSocket();
  welcome(f.current, [], 'tok1', { id: 'p1', name: 'Ann' });
  return { f, store };
}

const profile = (id: string, name: string, bot = false) => ({
  id,
  name,
  registered: true,
  bot,
  online: true,
  created_at: 1,
  username: name.toLowerCase(),
  ratings: {},
});

const challenge = {
  id: 'kxAOLOImBFXp',
  player: { id: 'p1', name: 'Ann' },
  time: { minutes: 3, increment: 2 },
  color: 'white',
  created: 1795271477975,
  to: { id: 'b1', name: 'RandBot', bot: true },
  rated: false,
  url: '/challenge/kxAOLOImBFXp',
};

beforeEach(() => vi.useFakeTimers());
afterEach(() => vi.useRealTimers());

describe('challengeByName', () => {
  it('finds the player by username, then challenges that id alone', async () => {
    const { f, store } = setup();
    const done = store.challengeByName(' RandBot ', { minutes: 3, increment: 2 }, 'white', false);
    const get = f.current.last('player_get')!;
    expect(get).toMatchObject({ username: 'RandBot' });
    f.current.receive({ type: 'player', player: profile('b1', 'RandBot', true), id: get.id });
    await vi.waitFor(() => expect(f.current.last('challenge_create')).toBeDefined());
    const sent = f.current.last('challenge_create')!;
    expect(sent).toMatchObject({ player: 'b1', time: { minutes: 3, increment: 2 }, color: 'white', rated: false });
    f.current.receive({ type: 'challenge_created', challenge, id: sent.id });
    await expect(done).resolves.toMatchObject({ id: 'kxAOLOImBFXp', to: { name: 'RandBot', bot: true } });
    expect(Object.keys(store.getState().challenges)).toEqual(['kxAOLOImBFXp']);
  });

  it('says when nobody has the name, without sending a challenge', async () => {
    const { f, store } = setup();
    const done = store.challengeByName('nobody', 'unlimited', 'random', false);
    const get = f.current.last('player_get')!;
    f.current.receive({ type: 'error', code: 'PLAYER_NOT_FOUND', message: 'no such player', id: get.id });
    await expect(done).rejects.toThrow('Nobody is called nobody here.');
    expect(f.current.last('challenge_create')).toBeUndefined();
  });

  it('refuses to challenge oneself and an empty name', async () => {
    const { f, store } = setup();
    await expect(store.challengeByName('  ', 'unlimited', 'random', false)).rejects.toThrow('Type the name');
    const done = store.challengeByName('ann', 'unlimited', 'random', false);
    f.current.receive({ type: 'player', player: profile('p1', 'Ann'), id: f.current.last('player_get')!.id });
    await expect(done).rejects.toThrow('You cannot challenge yourself.');
    expect(f.current.last('challenge_create')).toBeUndefined();
  });

  it('gives the server’s refusal in words (offline player, rated game it cannot play)', async () => {
    const { f, store } = setup();
    for (const [code, message] of [
      ['PLAYER_OFFLINE', 'the player is not connected'],
      ['RATED_UNAVAILABLE', 'this game cannot be rated'],
    ]) {
      const done = store.challengeByName('Ben', { minutes: 5, increment: 0 }, 'random', true);
      f.current.receive({ type: 'player', player: profile('p2', 'Ben'), id: f.current.last('player_get')!.id });
      await vi.waitFor(() => expect(f.current.last('challenge_create')?.player).toBe('p2'));
      const sent = f.current.last('challenge_create')!;
      expect(sent.rated).toBe(true);
      f.current.receive({ type: 'error', code, message, id: sent.id });
      await expect(done).rejects.toThrow(message[0].toUpperCase() + message.slice(1) + '.');
      f.current.sent.length = 0;
    }
    expect(store.getState().challenges).toEqual({});
  });
});

describe('seeks, rated or casual', () => {
  it('sends the choice, and a form gets the server’s refusal', async () => {
    const { f, store } = setup();
    void store.createSeek({ minutes: 5, increment: 0 }, 'random', true);
    expect(f.current.last('seek_create')).toMatchObject({ rated: true });
    void store.createSeek({ minutes: 5, increment: 0 }, 'random');
    expect('rated' in f.current.last('seek_create')!).toBe(false);
    const r = store.createSeekOrThrow('unlimited', 'white', true);
    const sent = f.current.last('seek_create')!;
    expect(sent).toMatchObject({ time: 'unlimited', rated: true });
    f.current.receive({ type: 'error', code: 'RATED_UNAVAILABLE', message: 'a rated game needs a clock', id: sent.id });
    await expect(r).rejects.toThrow('A rated game needs a clock.');
  });

  it('keeps a challenge received until it is declined, with the reason for its sender', () => {
    const { f, store } = setup();
    const incoming = { ...challenge, id: 'c2', player: { id: 'p2', name: 'Ben' }, to: { id: 'p1', name: 'Ann' } };
    f.current.receive({ type: 'challenge_received', challenge: incoming });
    expect(store.getState().incoming.c2).toMatchObject({ player: { name: 'Ben' } });
    void store.declineChallenge('c2', 'later');
    const sent = f.current.last('challenge_decline')!;
    expect(sent).toMatchObject({ challenge: 'c2', reason: 'later' });
    f.current.receive({ type: 'challenge_removed', challenge: 'c2', reason: 'declined', decline_reason: 'later', id: sent.id });
    expect(store.getState().incoming).toEqual({});
  });
});

describe('bots', () => {
  it('creates a bot and hands over its token once, from the reply', async () => {
    const { f, store } = setup();
    const done = store.createBotOrThrow('RandBot');
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
    expect(JSON.stringify(store.getState())).not.toContain('v6h4vPkAAL1gbDfzuu8Zn40KY237meqc');
  });

  it('lists the account’s bots with their working tokens', async () => {
    const { f, store } = setup();
    const list = store.listBotsOrThrow();
    const bots = [{ id: 'b1', name: 'RandBot', bot: true, created_at: 1795271477973, tokens: 2 }];
    f.current.receive({ type: 'bots', bots, id: f.current.last('bots_list')!.id });
    await expect(list).resolves.toEqual(bots);
    const refused = store.listBotsOrThrow();
    f.current.receive({ type: 'error', code: 'ACCOUNT_REQUIRED', message: 'only an account may own bots', id: f.current.last('bots_list')!.id });
    await expect(refused).rejects.toThrow('Only an account may own bots.');
  });

  it('gives new tokens, revokes them, and words the errors', async () => {
    const { f, store } = setup();
    const t = store.newBotTokenOrThrow('RandBot');
    f.current.receive({ type: 'bot_token', username: 'RandBot', token: 'Zq1b', id: f.current.last('bot_token_create')!.id });
    await expect(t).resolves.toBe('Zq1b');
    const r = store.revokeBotTokensOrThrow('RandBot');
    f.current.receive({ type: 'bot_token_revoked', username: 'RandBot', id: f.current.last('bot_token_revoke')!.id });
    await expect(r).resolves.toBeUndefined();
    const missing = store.revokeBotTokensOrThrow('Other');
    f.current.receive({ type: 'error', code: 'BOT_NOT_FOUND', message: 'you own no bot of that name', id: f.current.last('bot_token_revoke')!.id });
    await expect(missing).rejects.toThrow('You own no bot of that name.');
    const guest = store.createBotOrThrow('Bot2');
    f.current.receive({ type: 'error', code: 'ACCOUNT_REQUIRED', message: 'only an account may do this', id: f.current.last('bot_create')!.id });
    await expect(guest).rejects.toThrow('Only an account may do this.');
  });
});
