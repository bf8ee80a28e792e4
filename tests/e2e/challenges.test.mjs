/*
 * Bots and direct challenges in real browsers against the real server (docs/bots.md):
 * - "My bots": a person creates a bot; its token is shown once (copied through the clipboard,
 *   gone after hiding it and after a reload); the random bot (bots/random_bot.py, a real process)
 *   connects with it and seeks a game, which another person's lobby lists with a BOT badge;
 *   revoking the bot's tokens disconnects it.
 * - Rated or casual: a guest is told their games are casual; an account's rated seek is listed
 *   as rated.
 * - A challenge by name from one browser context, declined (with a reason) and then accepted in
 *   another, leads
 *   to a rated game on both pages; the server's refusals (no such player, a rated game without a
 *   clock) are shown in the form.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import {
  eventually,
  openPlayer,
  registerAccount,
  ROOT,
  screenshot,
  seekFromForm,
  suite,
  waitForGame,
} from './harness.mjs';

const ctx = suite();
const PASSWORD = 'correct horse battery';

/** Registers the page's guest as an account with this username. */
function register(page, username) {
  return registerAccount(page, username, PASSWORD);
}

test('a bot token shown once, the bot seeking in the lobby with a BOT badge, revoked', async () => {
  const ann = await openPlayer(ctx.browser, ctx.server, 'Ann');
  const ben = await openPlayer(ctx.browser, ctx.server, 'Ben');
  const page = ann.page;
  let bot = null;
  const botLog = [];
  try {
    // A guest is told why there is no choice of mode.
    await page.getByText('Casual game: rated games need an account.').first().waitFor();
    await register(page, 'ann_owner');
    await ann.context.grantPermissions(['clipboard-read', 'clipboard-write']);
    await page.getByRole('link', { name: 'My bots' }).click();
    await page.getByRole('heading', { level: 1, name: 'My bots' }).waitFor();

    // A name the server refuses: its reason in the page.
    await page.getByLabel("New bot's username").fill('x');
    await page.getByRole('button', { name: 'Create bot' }).click();
    await page.getByRole('alert').filter({ hasText: /username/i }).waitFor();

    await page.getByLabel("New bot's username").fill('AnnBot');
    await page.getByRole('button', { name: 'Create bot' }).click();
    const shown = page.getByRole('region', { name: 'New token for AnnBot' });
    await shown.getByText('you will not see it again').waitFor();
    const token = await shown.getByRole('textbox', { name: 'Token for AnnBot' }).inputValue();
    assert.match(token, /^[A-Za-z0-9]{32}$/);
    await shown.getByRole('button', { name: 'Copy' }).click();
    await shown.getByText('Copied to the clipboard.').waitFor();
    assert.equal(await page.evaluate(() => navigator.clipboard.readText()), token);
    await screenshot(page, 'bots-token-once');

    // Shown once: hidden for good, and a reload does not bring it back.
    await shown.getByRole('button', { name: 'I have copied it, hide it' }).click();
    await page.getByRole('textbox', { name: 'Token for AnnBot' }).waitFor({ state: 'detached' });
    await page.reload();
    await page.getByRole('heading', { level: 1, name: 'My bots' }).waitFor();
    // Once the list of bots has loaded, the token is nowhere on the page.
    await page.getByRole('listitem').filter({ hasText: 'AnnBot · 1 working token' }).waitFor();
    assert.equal(await page.getByText(token).count(), 0);
    assert.equal(await page.getByRole('textbox', { name: /^Token for/ }).count(), 0);

    // The bot, a real process, connects with the token and seeks a game.
    const wsUrl = `${ctx.server.url.replace('http', 'ws')}/ws`;
    bot = spawn('/usr/bin/python3', [join(ROOT, 'bots', 'random_bot.py'), '--url', wsUrl, '--token', token, '--seek', '--time', '5+3'], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    bot.stdout.on('data', (d) => botLog.push(d));
    bot.stderr.on('data', (d) => botLog.push(d));
    const exited = new Promise((resolve) => bot.on('exit', (code) => resolve(code)));

    // Another person's lobby lists the bot's seek, marked BOT.
    const row = ben.page.getByRole('row').filter({ hasText: 'AnnBot' });
    await row.waitFor({ timeout: 15000 });
    assert.equal(await row.getByText('BOT', { exact: true }).innerText(), 'BOT');
    assert.match(await row.innerText(), /5\+3/);
    await screenshot(ben.page, 'lobby-bot-seek');

    // Revoking every token disconnects the bot (BAD_TOKEN, then the close).
    const listed = page.getByRole('listitem').filter({ hasText: 'AnnBot' });
    await listed.filter({ hasText: 'AnnBot · 1 working token' }).waitFor();
    await listed.getByRole('button', { name: 'Revoke the tokens of AnnBot' }).click();
    await listed.getByRole('button', { name: 'Yes, revoke the tokens of AnnBot' }).click();
    await page.getByText('Every token of AnnBot is revoked').waitFor();
    await listed.filter({ hasText: 'AnnBot · 0 working tokens' }).waitFor();
    const code = await Promise.race([exited, new Promise((r) => setTimeout(() => r('running'), 10000))]);
    assert.notEqual(code, 'running', 'the bot is still connected after the revocation');
    assert.match(Buffer.concat(botLog).toString(), /BAD_TOKEN/);

    // A new token lets it in again; it differs from the revoked one.
    await listed.getByRole('button', { name: 'New token for AnnBot' }).click();
    const again = await page.getByRole('textbox', { name: 'Token for AnnBot' }).inputValue();
    assert.match(again, /^[A-Za-z0-9]{32}$/);
    assert.notEqual(again, token);
    await listed.filter({ hasText: 'AnnBot · 1 working token' }).waitFor();
  } catch (err) {
    if (botLog.length) console.error(`random_bot output:\n${Buffer.concat(botLog).toString().slice(-3000)}`);
    throw err;
  } finally {
    bot?.kill('SIGTERM');
    await ann.context.close();
    await ben.context.close();
  }
});

test('a challenge by name, declined then accepted in another browser, starts a rated game', async () => {
  const cara = await openPlayer(ctx.browser, ctx.server, 'Cara');
  const dan = await openPlayer(ctx.browser, ctx.server, 'Dan');
  try {
    await register(cara.page, 'cara_e2e');
    await register(dan.page, 'dan_e2e');
    for (const p of [cara.page, dan.page]) await p.getByRole('link', { name: 'Play' }).click();
    const form = dan.page.locator('form').filter({ has: dan.page.getByLabel('Player or bot username') });

    // The server's refusals, in the form: nobody of that name; a rated game without a clock.
    await form.getByLabel('Player or bot username').fill('nobody_here');
    await form.getByRole('button', { name: 'Send challenge' }).click();
    await form.getByRole('alert').filter({ hasText: 'Nobody is called nobody_here here.' }).waitFor();
    await form.getByLabel('Player or bot username').fill('cara_e2e');
    await form.getByLabel('Clock').selectOption('unlimited');
    await form.getByRole('radio', { name: 'Rated' }).check();
    await form.getByRole('button', { name: 'Send challenge' }).click();
    // (The previous refusal may still be shown until this answer replaces it.)
    await form.getByRole('alert').filter({ hasText: /rated/i }).waitFor();

    // Declined: Dan is told so.
    await form.getByLabel('Clock').selectOption('3+2');
    await form.getByRole('radio', { name: 'White' }).check();
    await form.getByRole('button', { name: 'Send challenge' }).click();
    await form.getByText('Challenge sent to cara_e2e').waitFor();
    const incoming = cara.page.getByRole('region', { name: 'Challenges to you' }).getByRole('listitem');
    await incoming.filter({ hasText: 'dan_e2e' }).waitFor();
    assert.match(await incoming.innerText(), /3\+2 · you play black · rated/);
    await incoming.getByRole('combobox', { name: /^Reason to decline/ }).selectOption({ label: 'Not now' });
    await incoming.getByRole('button', { name: 'Decline' }).click();
    await dan.page.getByText('cara_e2e declined your challenge: not now').waitFor();
    // Cara's list follows her own reply, which may arrive after Dan's notice.
    await eventually(async () => (await incoming.count()) === 0, { what: "the declined challenge gone from Cara's list" });

    // Sent again and accepted: both pages open the same rated game, Dan with White.
    await form.getByRole('button', { name: 'Send challenge' }).click();
    await incoming.filter({ hasText: 'dan_e2e' }).waitFor();
    await screenshot(cara.page, 'lobby-challenge-received');
    await incoming.getByRole('button', { name: 'Accept' }).click();
    const [a, b] = await Promise.all([waitForGame(cara.page), waitForGame(dan.page)]);
    assert.equal(a, b);
    for (const p of [cara.page, dan.page]) {
      await p.getByText(/3\+2 · rated/).waitFor();
    }
    await dan.page.getByText('you play white').waitFor();
    await eventually(async () => (await cara.page.getByText('you play black').count()) === 1, { what: 'Cara with Black' });
  } finally {
    await cara.context.close();
    await dan.context.close();
  }
});

test('a rated seek is listed as rated', async () => {
  const eve = await openPlayer(ctx.browser, ctx.server, 'Eve');
  const fay = await openPlayer(ctx.browser, ctx.server, 'Fay');
  try {
    await register(eve.page, 'eve_e2e');
    await eve.page.getByRole('link', { name: 'Play' }).click();
    await seekFromForm(eve.page, '10+0', null, 'Rated');
    const row = fay.page.getByRole('row').filter({ hasText: 'eve_e2e' });
    await row.waitFor();
    assert.match(await row.innerText(), /\brated\b/);
    // A guest may not join a rated seek: the server's reason is shown.
    await row.getByRole('button', { name: /^Join/ }).click();
    await fay.page.getByRole('alert').filter({ hasText: /rated/i }).waitFor();
  } finally {
    await eve.context.close();
    await fay.context.close();
  }
});
