/*
 * Moderation against the fake socket (docs/moderation.md): reports, blocks, a moderator's
 * actions, reports and log, the errors in words, and the admin role from the welcome and from
 * a grant.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { clientOnFakeSocket } from '../../app/testClient';
import { welcome } from '../../net/fakeSocket';

function setup() {
  const { f, client } = clientOnFakeSocket();
  welcome(f.current, [], 'tok1', { id: 'p1', name: 'Ann' });
  return { f, moderation: client.moderation, client };
}

beforeEach(() => vi.useFakeTimers());
afterEach(() => vi.useRealTimers());

describe('ModerationController', () => {
  it('reports a player with a kind, the words and the game, leaving out empty ones', async () => {
    const { f, moderation } = setup();
    const done = moderation.report('p2', 'abuse', '  rude in chat ', 'g1');
    const sent = f.current.last('report')!;
    expect(sent).toMatchObject({ player: 'p2', kind: 'abuse', text: 'rude in chat', game: 'g1' });
    f.current.receive({ type: 'report_received', player: 'p2', id: sent.id });
    await expect(done).resolves.toBeUndefined();
    const bare = moderation.report('p2', 'spam', '   ');
    const second = f.current.last('report')!;
    expect(second).not.toHaveProperty('text');
    expect(second).not.toHaveProperty('game');
    f.current.receive({ type: 'error', code: 'SELF_TARGET', message: 'you cannot do that to yourself', id: second.id });
    await expect(bare).rejects.toThrow('You cannot do that to yourself.');
  });

  it('blocks and unblocks, and lists the blocked players', async () => {
    const { f, moderation } = setup();
    const on = moderation.setBlocked('p2', true);
    f.current.receive({ type: 'block_set', player: 'p2', blocked: true, id: f.current.last('block')!.id });
    await expect(on).resolves.toBe(true);
    const off = moderation.setBlocked('p2', false);
    f.current.receive({ type: 'block_set', player: 'p2', blocked: false, id: f.current.last('unblock')!.id });
    await expect(off).resolves.toBe(false);
    const list = moderation.blocks();
    f.current.receive({ type: 'blocks', players: [{ id: 'p2', name: 'Troll' }], id: f.current.last('blocks_list')!.id });
    await expect(list).resolves.toEqual([{ id: 'p2', name: 'Troll' }]);
  });

  it('sends a moderator’s actions with their note, and reads reports and the log', async () => {
    const { f, moderation } = setup();
    const ban = moderation.act('p2', 'ban', 'engine use');
    const sent = f.current.last('mod_action')!;
    expect(sent).toMatchObject({ player: 'p2', action: 'ban', text: 'engine use' });
    f.current.receive({ type: 'mod_done', action: 'ban', player: 'p2', id: sent.id });
    await expect(ban).resolves.toBeUndefined();
    const refused = moderation.act('p2', 'mute', 'x');
    f.current.receive({ type: 'error', code: 'NOT_ADMIN', message: 'only a moderator may do that', id: f.current.last('mod_action')!.id });
    await expect(refused).rejects.toThrow('Only a moderator may do that.');
    const resolved = moderation.resolve(7, 'warned');
    expect(f.current.last('report_resolve')).toMatchObject({ report: 7, text: 'warned' });
    f.current.receive({ type: 'mod_done', action: 'resolve', report: 7, id: f.current.last('report_resolve')!.id });
    await expect(resolved).resolves.toBeUndefined();
    const reports = moderation.reports();
    const report = { id: 7, reporter: { id: 'p1', name: 'Ann' }, player: { id: 'p2', name: 'Troll' }, kind: 'abuse' as const, text: '', created_at: 1 };
    f.current.receive({ type: 'mod_reports', reports: [report], id: f.current.last('mod_reports')!.id });
    await expect(reports).resolves.toEqual([report]);
    const log = moderation.log('p2');
    expect(f.current.last('mod_log')).toMatchObject({ player: 'p2' });
    f.current.receive({ type: 'mod_log', entries: [], id: f.current.last('mod_log')!.id });
    await expect(log).resolves.toEqual([]);
  });

  it('knows the admin role from the welcome and from a grant to this player only', () => {
    const { f, client } = clientOnFakeSocket();
    welcome(f.current, [], 'tok1', { id: 'p1', name: 'Ann' });
    expect(client.app.getState().me?.admin).toBeUndefined();
    f.current.receive({ type: 'mod_done', action: 'grant', player: 'p9' });
    expect(client.app.getState().me?.admin).toBeUndefined();
    f.current.receive({ type: 'mod_done', action: 'grant', player: 'p1' });
    expect(client.app.getState().me?.admin).toBe(true);
  });
});

describe('the welcome of a moderator', () => {
  it('marks the player as admin', () => {
    const { f, client } = clientOnFakeSocket();
    f.current.open();
    const hello = f.current.last('hello');
    f.current.receive({ type: 'welcome', protocol: 1, player: { id: 'p1', name: 'Boss' }, token: 'tok1', games: [], admin: true, id: hello?.id });
    expect(client.app.getState().me?.admin).toBe(true);
  });
});
