/*
 * Ratings in play, in a real browser: two accounts play a rated game; the game page shows each
 * player's rating beside the name (provisional ones with "?") before the game ends, and each
 * one's change (+ or −) once it has.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  clickMove,
  eventually,
  openPlayer,
  registerAccount,
  screenshot,
  seekFromForm,
  suite,
  waitForGame,
} from './harness.mjs';

const ctx = suite();

test('ratings beside the names, and their changes at the end of a rated game', async () => {
  const ann = await openPlayer(ctx.browser, ctx.server, 'Ann');
  const bob = await openPlayer(ctx.browser, ctx.server, 'Bob');
  try {
    await registerAccount(ann.page, 'ann_rated', 'correct horse battery');
    await registerAccount(bob.page, 'bob_rated', 'correct horse battery');
    await ann.page.getByRole('link', { name: 'Play' }).click();
    await bob.page.getByRole('link', { name: 'Play' }).click();
    await seekFromForm(ann.page, '5+0', 'White', 'Rated');
    await bob.page.getByRole('button', { name: "Join ann_rated's 5+0 game" }).click();
    await Promise.all([waitForGame(ann.page), waitForGame(bob.page)]);
    await ann.page.getByText('rated').first().waitFor();
    // Before the end: 1500, provisional, for both, on both pages.
    for (const page of [ann.page, bob.page]) {
      const bars = page.locator('.player-bar');
      await eventually(async () => (await bars.getByLabel('rating 1500, provisional').count()) === 2, {
        what: 'both ratings shown',
      });
    }
    await clickMove(ann.page, 'e2', 'e4');
    await clickMove(bob.page, 'e7', 'e5');
    await eventually(async () => (await ann.page.getByRole('list', { name: 'Moves' }).getByRole('button').count()) === 2, {
      what: 'both moves on Ann’s board',
    });
    await bob.page.getByRole('button', { name: 'Resign' }).click();
    await bob.page.getByRole('button', { name: 'Yes, resign' }).click();
    await ann.page.getByText('White wins').waitFor();
    // After: Ann up, Bob down by as much, on both pages.
    for (const page of [ann.page, bob.page]) {
      const annBar = page.locator('.player-bar').filter({ hasText: 'ann_rated' });
      const bobBar = page.locator('.player-bar').filter({ hasText: 'bob_rated' });
      const up = await annBar.locator('.rating-up').innerText({ timeout: 10000 });
      const down = await bobBar.locator('.rating-down').innerText({ timeout: 10000 });
      const gain = Number(up.trim().replace('+', ''));
      const loss = Number(down.trim().replace('−', ''));
      assert.ok(gain > 0 && loss > 0 && Math.abs(gain - loss) <= 1, `+${gain} / −${loss}`);
      await annBar.getByLabel(new RegExp(`^rating 1500, provisional, up ${gain}$`)).waitFor();
    }
    // Ann's profile charts her rating after the game.
    const after = 1500 + Number((await ann.page.locator('.rating-up').first().innerText()).trim().replace('+', ''));
    await ann.page.locator('.player-bar').filter({ hasText: 'ann_rated' }).getByRole('link').first().click();
    const chart = ann.page.getByRole('img', { name: /^Rating history: / });
    assert.equal(await chart.getAttribute('aria-label'), `Rating history: Blitz: ${after} to ${after} over 1 rated game`);
    await screenshot(ann.page, 'profile-rating-chart');
  } finally {
    await ann.context.close();
    await bob.context.close();
  }
});
