/*
 * Moderation in a real browser (docs/moderation.md): the site's first account becomes its
 * moderator and gets the Moderation page; a player reports and blocks their opponent from the
 * opponent's page; the moderator sees the report, bans the player from its page with a note, and
 * the banned player's browser is refused for good; the report is closed and the log shows both.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { openPlayer, pair, screenshot, suite } from './harness.mjs';

const ctx = suite();
const PASSWORD = 'correct horse battery';

test('the first account moderates: a report, a block, a ban and the log', async () => {
  // The first account registered on this server is its moderator.
  const boss = await openPlayer(ctx.browser, ctx.server, 'Boss');
  await boss.page.getByRole('link', { name: 'Account' }).click();
  const form = boss.page.locator('form').filter({ has: boss.page.getByRole('button', { name: 'Register' }) });
  await form.getByLabel('Username').fill('boss_e2e');
  await form.getByLabel('Password').fill(PASSWORD);
  await form.getByRole('button', { name: 'Register' }).click();
  await boss.page.getByRole('link', { name: 'Moderation' }).waitFor();

  // Anna plays Troll, opens Troll's page from the game, reports and blocks him.
  const { alice: anna, bob: troll } = await pair(ctx, 'Anna', 'Troll');
  assert.equal(await anna.page.getByRole('link', { name: 'Moderation' }).count(), 0);
  await anna.page.getByRole('link', { name: 'Troll' }).first().click();
  await anna.page.getByRole('heading', { name: 'Troll', exact: true }).waitFor();
  const trollUrl = anna.page.url();
  const report = anna.page.getByRole('form', { name: 'Report Troll' });
  await report.getByLabel('Reason').selectOption('abuse');
  await report.getByLabel('What happened (optional)').fill('insults in the chat');
  await report.getByRole('button', { name: 'Report Troll' }).click();
  await anna.page.getByText('Reported Troll: the moderators will look at it.').waitFor();
  await anna.page.getByRole('button', { name: 'Block Troll' }).click();
  await anna.page.getByRole('button', { name: 'Unblock Troll' }).waitFor();
  // Not a moderator: no moderation panel on Anna's side.
  assert.equal(await anna.page.getByRole('heading', { name: 'Moderate Troll' }).count(), 0);

  // The moderator sees the report and opens the reported player's page from it.
  await boss.page.getByRole('link', { name: 'Moderation' }).click();
  await boss.page.getByRole('heading', { name: 'Open reports' }).waitFor();
  await boss.page.getByText('insults in the chat').waitFor();
  await screenshot(boss.page, 'moderation-reports');
  await boss.page.getByRole('link', { name: 'Troll' }).first().click();
  await boss.page.getByRole('heading', { name: 'Moderate Troll' }).waitFor();
  assert.equal(boss.page.url(), trollUrl);
  // A note is required.
  await boss.page.getByRole('button', { name: 'Ban', exact: true }).click();
  await boss.page.getByText('Write a note for the log first.').waitFor();
  await boss.page.getByLabel('Note for the log (required)').fill('abusive, reported');
  await boss.page.getByRole('button', { name: 'Ban', exact: true }).click();
  await boss.page.getByText('Ban: done.').waitFor();
  await boss.page.getByText(/boss_e2e ban Troll: abusive, reported/).waitFor();

  // Troll's browser is refused for good: no retry countdown, the reason shown.
  await troll.page.getByText(/Not connected \(the server refused the connection: this player is banned/).waitFor();
  // His game (no move played yet) was aborted: Anna's board says so.
  await anna.page.goBack();
  await anna.page.getByText('Game aborted').waitFor();

  // The report is closed with a note, and the log shows both actions.
  await boss.page.getByRole('link', { name: 'Moderation' }).click();
  const close = boss.page.getByRole('form', { name: /^Close report / });
  await close.getByLabel('Note').fill('banned');
  await close.getByRole('button', { name: 'Close report' }).click();
  await boss.page.getByText('No open reports.').waitFor();
  await boss.page.getByText('Closed by boss_e2e: banned').waitFor();
  await boss.page.getByText(/boss_e2e resolve.*: banned/).waitFor();
  await screenshot(boss.page, 'moderation-log');
});
