/*
 * Bots in a real browser (docs/bots.md): a person registers, creates a bot on "My bots" and
 * reads its token once; the random bot (bots/random_bot.py, a real process) connects with it; the
 * person finds the bot's profile marked BOT, challenges it from there, the bot accepts, and the
 * game page marks the bot while they play.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { clickMove, eventually, moveList, openPlayer, ROOT, suite, waitForGame } from './harness.mjs';

const ctx = suite();

test('create a bot, run it, challenge it and play it', async () => {
  const ann = await openPlayer(ctx.browser, ctx.server, 'Ann');
  const page = ann.page;
  await page.getByRole('link', { name: 'Account' }).click();
  const form = page.locator('form').filter({ has: page.getByRole('button', { name: 'Register' }) });
  await form.getByLabel('Username').fill('ann_bots');
  await form.getByLabel('Password').fill('correct horse battery');
  await form.getByRole('button', { name: 'Register' }).click();
  await page.getByText('You are logged in.').waitFor();
  // The profile leads to "My bots", where the bot and its token (shown once) are made.
  await page.getByRole('link', { name: 'Your profile' }).click();
  await page.getByRole('link', { name: 'manage your bots and their tokens' }).click();
  await page.getByRole('heading', { level: 1, name: 'My bots' }).waitFor();
  await page.getByLabel("New bot's username").fill('AnnBot');
  await page.getByRole('button', { name: 'Create bot' }).click();
  const token = await page.getByRole('textbox', { name: 'Token for AnnBot' }).inputValue();
  assert.match(token, /^[A-Za-z0-9]{32}$/);
  await page.getByRole('listitem').filter({ hasText: 'AnnBot · 1 working token' }).waitFor();

  const wsUrl = `${ctx.server.url.replace('http', 'ws')}/ws`;
  const bot = spawn('/usr/bin/python3', [join(ROOT, 'bots', 'random_bot.py'), '--url', wsUrl, '--token', token], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const botLog = [];
  bot.stdout.on('data', (d) => botLog.push(d));
  bot.stderr.on('data', (d) => botLog.push(d));
  try {
    const info = await (await fetch(`${ctx.server.url}/api/users/annbot`)).json();
    assert.equal(info.bot, true);
    // Its profile, once it is connected: marked BOT, with a challenge form.
    await eventually(
      async () => {
        await page.goto(`/player/${info.id}`);
        await page.getByRole('heading', { level: 1, name: /AnnBot/ }).waitFor();
        return page.getByText('online now').isVisible();
      },
      { what: 'the bot online', timeout: 15000 },
    );
    await page.getByRole('heading', { level: 1, name: /AnnBot/ }).getByText('BOT', { exact: true }).waitFor();
    await page.getByLabel('Time control').selectOption('3+2');
    await page.getByRole('radio', { name: 'White' }).check();
    await page.getByRole('button', { name: 'Send challenge' }).click();

    // The bot accepts: the game opens, the bot's seat marked.
    await waitForGame(page);
    await page.locator('.player-bar').filter({ hasText: 'AnnBot' }).getByText('BOT', { exact: true }).waitFor();
    await clickMove(page, 'e2', 'e4');
    const moves = await eventually(async () => {
      const list = await moveList(page);
      return list.length >= 2 && list;
    }, { what: 'the bot’s reply' });
    assert.equal(moves[0], 'e4');
    await page.getByRole('button', { name: 'Resign' }).click();
    await page.getByRole('button', { name: 'Yes, resign' }).click();
    await page.getByText('Black wins').waitFor();
    // The bot says "good game" at the end; its chat line is marked BOT too.
    await page
      .getByRole('list', { name: 'Messages' })
      .getByRole('listitem')
      .filter({ hasText: 'good game' })
      .getByText('BOT', { exact: true })
      .waitFor();
    // The archive marks the bot in the person's game history.
    await page.getByRole('link', { name: 'Account' }).click();
    await page.getByRole('link', { name: 'Your profile' }).click();
    const history = page.getByRole('region', { name: 'Games' }).getByRole('listitem').filter({ hasText: 'AnnBot' });
    await history.getByText('BOT', { exact: true }).waitFor();
  } catch (err) {
    console.error(`random_bot output:\n${Buffer.concat(botLog).toString().slice(-3000)}`);
    throw err;
  } finally {
    bot.kill('SIGTERM');
    await ann.context.close();
  }
});
