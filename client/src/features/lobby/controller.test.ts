/*
 * The lobby controller against the fake socket with the server's message shapes
 * (docs/protocol.md): refusals as notices, direct challenges (by id and by name) and the notice
 * of a decline, rated or casual seeks, challenges received, games against the computer.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { clientOnFakeSocket } from '../../app/testClient';
import { welcome } from '../../net/fakeSocket';

function setup() {
  const { f, client } = clientOnFakeSocket();
  welcome(f.current, [], 'tok1', { id: 'p1', name: 'Ann' });
  return { f, lobby: client.lobby, app: client.app };
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
    const { f, lobby } = setup();
    const done = lobby.challengeByName(' RandBot ', { minutes: 3, increment: 2 }, 'white', false);
    const get = f.current.last('player_get')!;
    expect(get).toMatchObject({ username: 'RandBot' });
    f.current.receive({ type: 'player', player: profile('b1', 'RandBot', true), id: get.id });
    await vi.waitFor(() => expect(f.current.last('challenge_create')).toBeDefined());
    const sent = f.current.last('challenge_create')!;
    expect(sent).toMatchObject({ player: 'b1', time: { minutes: 3, increment: 2 }, color: 'white', rated: false });
    f.current.receive({ type: 'challenge_created', challenge, id: sent.id });
    await expect(done).resolves.toMatchObject({ id: 'kxAOLOImBFXp', to: { name: 'RandBot', bot: true } });
    expect(Object.keys(lobby.getState().challenges)).toEqual(['kxAOLOImBFXp']);
  });

  it('says when nobody has the name, without sending a challenge', async () => {
    const { f, lobby } = setup();
    const done = lobby.challengeByName('nobody', 'unlimited', 'random', false);
    const get = f.current.last('player_get')!;
    f.current.receive({ type: 'error', code: 'PLAYER_NOT_FOUND', message: 'no such player', id: get.id });
    await expect(done).rejects.toThrow('Nobody is called nobody here.');
    expect(f.current.last('challenge_create')).toBeUndefined();
  });

  it('refuses to challenge oneself and an empty name', async () => {
    const { f, lobby } = setup();
    await expect(lobby.challengeByName('  ', 'unlimited', 'random', false)).rejects.toThrow('Type the name');
    const done = lobby.challengeByName('ann', 'unlimited', 'random', false);
    f.current.receive({ type: 'player', player: profile('p1', 'Ann'), id: f.current.last('player_get')!.id });
    await expect(done).rejects.toThrow('You cannot challenge yourself.');
    expect(f.current.last('challenge_create')).toBeUndefined();
  });

  it('gives the server’s refusal in words (offline player, rated game it cannot play)', async () => {
    const { f, lobby } = setup();
    for (const [code, message] of [
      ['PLAYER_OFFLINE', 'the player is not connected'],
      ['RATED_UNAVAILABLE', 'this game cannot be rated'],
    ]) {
      const done = lobby.challengeByName('Ben', { minutes: 5, increment: 0 }, 'random', true);
      f.current.receive({ type: 'player', player: profile('p2', 'Ben'), id: f.current.last('player_get')!.id });
      await vi.waitFor(() => expect(f.current.last('challenge_create')?.player).toBe('p2'));
      const sent = f.current.last('challenge_create')!;
      expect(sent.rated).toBe(true);
      f.current.receive({ type: 'error', code, message, id: sent.id });
      await expect(done).rejects.toThrow(message[0].toUpperCase() + message.slice(1) + '.');
      f.current.sent.length = 0;
    }
    expect(lobby.getState().challenges).toEqual({});
  });
});

describe('quick pairing', () => {
  it('joins a pool, follows the wait, leaves it; a new connection waits in none', async () => {
    const { f, lobby } = setup();
    void lobby.joinPool({ minutes: 3, increment: 2 }, true);
    const join = f.current.last('pool_join')!;
    expect(join).toMatchObject({ time: { minutes: 3, increment: 2 }, rated: true });
    f.current.receive({ type: 'pool_joined', time: { minutes: 3, increment: 2 }, rated: true, waiting: 2, id: join.id });
    expect(lobby.getState().pool).toEqual({ time: { minutes: 3, increment: 2 }, rated: true, waiting: 2 });
    void lobby.leavePool();
    const leave = f.current.last('pool_leave')!;
    f.current.receive({ type: 'pool_left', id: leave.id });
    expect(lobby.getState().pool).toBeNull();
    void lobby.joinPool({ minutes: 1, increment: 0 }, false);
    f.current.receive({ type: 'pool_joined', time: { minutes: 1, increment: 0 }, rated: false, waiting: 1 });
    f.current.drop();
    vi.advanceTimersByTime(300);
    welcome(f.current, [], 'tok1', { id: 'p1', name: 'Ann' });
    expect(lobby.getState().pool).toBeNull();
  });
});

describe('seeks, rated or casual', () => {
  it('sends the choice, and a form gets the server’s refusal', async () => {
    const { f, lobby } = setup();
    void lobby.createSeek({ minutes: 5, increment: 0 }, 'random', true);
    expect(f.current.last('seek_create')).toMatchObject({ rated: true });
    void lobby.createSeek({ minutes: 5, increment: 0 }, 'random');
    expect('rated' in f.current.last('seek_create')!).toBe(false);
    const r = lobby.createSeekOrThrow('unlimited', 'white', true);
    const sent = f.current.last('seek_create')!;
    expect(sent).toMatchObject({ time: 'unlimited', rated: true });
    f.current.receive({ type: 'error', code: 'RATED_UNAVAILABLE', message: 'a rated game needs a clock', id: sent.id });
    await expect(r).rejects.toThrow('A rated game needs a clock.');
  });

  it('keeps a challenge received until it is declined, with the reason for its sender', () => {
    const { f, lobby } = setup();
    const incoming = { ...challenge, id: 'c2', player: { id: 'p2', name: 'Ben' }, to: { id: 'p1', name: 'Ann' } };
    f.current.receive({ type: 'challenge_received', challenge: incoming });
    expect(lobby.getState().incoming.c2).toMatchObject({ player: { name: 'Ben' } });
    void lobby.declineChallenge('c2', 'later');
    const sent = f.current.last('challenge_decline')!;
    expect(sent).toMatchObject({ challenge: 'c2', reason: 'later' });
    f.current.receive({ type: 'challenge_removed', challenge: 'c2', reason: 'declined', decline_reason: 'later', id: sent.id });
    expect(lobby.getState().incoming).toEqual({});
  });
});

describe('LobbyController', () => {
  it('turns refusals into readable notices', async () => {
    const { f, lobby, app } = setup();
    const r = lobby.createSeek({ minutes: 5, increment: 0 }, 'random');
    const sent = f.current.last('seek_create')!;
    f.current.receive({ type: 'error', code: 'TOO_MANY_SEEKS', message: 'you have too many open seeks and challenges', id: sent.id });
    await expect(r).resolves.toBeNull();
    expect(app.getState().notices[0]).toMatchObject({ kind: 'error', text: 'You have too many open seeks and challenges.' });
  });

  it('challenges a player directly and says why it was declined', async () => {
    const { f, lobby, app } = setup();
    const r = lobby.createChallenge({ minutes: 3, increment: 2 }, 'random', 'b1');
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
    expect(lobby.getState().challenges).toEqual({});
    expect(app.getState().notices.at(-1)).toMatchObject({
      kind: 'info',
      text: 'RandBot declined your challenge: not this time control',
    });
    // A challenge to this player, declined from here.
    f.current.receive({ type: 'challenge_received', challenge: { ...challenge, id: 'c2', player: challenge.to } });
    void lobby.declineChallenge('c2');
    expect(f.current.last('challenge_decline')).toMatchObject({ challenge: 'c2' });
  });

  it('passes the computer’s refusal on in words', async () => {
    const { f, lobby } = setup();
    const r = lobby.playComputerOrThrow(1, { minutes: 5, increment: 0 }, 'white');
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
