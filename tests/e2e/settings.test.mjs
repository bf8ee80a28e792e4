/*
 * Player settings (docs/client.md, "Settings"): each setting chosen on the settings page applies
 * at once and persists across a reload; the board's colours and piece set change what is drawn
 * (a square's computed colour, the pieces' image sources), the dark and light themes apply
 * (and "system" follows the browser's preference); auto-queen promotes without the chooser,
 * move confirmation holds a board move until Confirm, zen mode leaves the board, clocks and
 * move controls; an account's settings follow it to a fresh browser context after login (the
 * server's copy wins over that browser's, which keeps what the server lacks).
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  clickMove,
  DESKTOP,
  eventually,
  openPlayer,
  pair,
  registerAccount,
  screenshot,
  square,
  suite,
  waitForMoves,
} from './harness.mjs';

const ctx = suite();
const PASSWORD = 'correct horse battery';

/** The computed background colour of a board square ("a1") on the page. */
function squareColor(page, name) {
  return square(page, name).evaluate((el) => getComputedStyle(el.parentElement).backgroundColor);
}

/** The page's background colour (the theme's --bg). */
function pageColor(page) {
  return page.evaluate(() => getComputedStyle(document.documentElement).backgroundColor);
}

const BROWN_DARK = 'rgb(181, 136, 99)';
const BLUE_DARK = 'rgb(140, 162, 173)';
const GREEN_DARK = 'rgb(134, 166, 102)';
const DARK_BG = 'rgb(22, 21, 18)';
const LIGHT_BG = 'rgb(237, 235, 233)';

const preview = (page) => page.getByRole('group', { name: 'Preview of the board' });

test('every setting applies at once and persists across a reload', async () => {
  const { context, page } = await openPlayer(ctx.browser, ctx.server, 'Sam', '/settings');
  await page.emulateMedia({ colorScheme: 'light' });
  // The defaults: brown squares, the board's own pieces (inline SVG, no images), the system's
  // theme (light here), coordinates shown.
  assert.equal(await squareColor(page, 'a1'), BROWN_DARK);
  assert.equal(await preview(page).locator('img').count(), 0);
  assert.equal(await pageColor(page), LIGHT_BG);
  assert.match(await preview(page).innerText(), /a/);
  await page.emulateMedia({ colorScheme: 'dark' });
  await eventually(async () => (await pageColor(page)) === DARK_BG, { what: 'the system dark theme' });

  await page.getByRole('radio', { name: 'Blue' }).check();
  assert.equal(await squareColor(page, 'a1'), BLUE_DARK);
  await page.getByRole('radio', { name: 'Merida' }).check();
  const merida = preview(page).locator('img[data-piece-set="merida"]');
  await eventually(async () => (await merida.count()) === 32, { what: 'the Merida pieces' });
  assert.match(await merida.first().getAttribute('src'), /^data:image\/svg\+xml/);
  await page.getByRole('radio', { name: 'Light' }).check(); // explicit: wins over the system
  assert.equal(await pageColor(page), LIGHT_BG);
  assert.equal(await page.evaluate(() => document.documentElement.dataset.theme), 'light');
  await page.getByRole('radio', { name: 'Dark' }).check();
  assert.equal(await pageColor(page), DARK_BG);
  await page.getByLabel('Board size').fill('70');
  await page.getByLabel('Show coordinates').uncheck();
  assert.doesNotMatch(await preview(page).innerText(), /[a-h1-8]/);
  await page.getByLabel('Piece animation').selectOption('slow');
  await page.getByLabel(/^Confirm moves/).check();
  await page.getByLabel('Promote to a queen automatically').selectOption('always');
  await page.getByLabel('Sound volume').fill('30');
  await page.getByLabel(/^Zen mode/).check();
  await screenshot(page, 'settings-dark-merida');

  await page.reload();
  await page.getByRole('status').filter({ hasText: 'Online' }).waitFor();
  assert.equal(await page.getByRole('radio', { name: 'Blue' }).isChecked(), true);
  assert.equal(await page.getByRole('radio', { name: 'Merida' }).isChecked(), true);
  assert.equal(await page.getByRole('radio', { name: 'Dark' }).isChecked(), true);
  assert.equal(await page.getByLabel('Board size').inputValue(), '70');
  assert.equal(await page.getByLabel('Show coordinates').isChecked(), false);
  assert.equal(await page.getByLabel('Piece animation').inputValue(), 'slow');
  assert.equal(await page.getByLabel(/^Confirm moves/).isChecked(), true);
  assert.equal(await page.getByLabel('Promote to a queen automatically').inputValue(), 'always');
  assert.equal(await page.getByLabel('Sound volume').inputValue(), '30');
  assert.equal(await page.getByLabel(/^Zen mode/).isChecked(), true);
  // ... and applied again: the board, the theme, the board's size.
  assert.equal(await squareColor(page, 'a1'), BLUE_DARK);
  await eventually(async () => (await preview(page).locator('img[data-piece-set="merida"]').count()) === 32, {
    what: 'the Merida pieces after the reload',
  });
  assert.equal(await pageColor(page), DARK_BG);
  assert.equal(
    await page.evaluate(() => getComputedStyle(document.documentElement).getPropertyValue('--board-scale').trim()),
    '0.7',
  );
  // The other set is drawn from its own images; back to the defaults draws the board's own.
  await page.getByRole('radio', { name: 'Wikimedia' }).check();
  await eventually(async () => (await preview(page).locator('img[data-piece-set="wikimedia"]').count()) === 32, {
    what: 'the Wikimedia pieces',
  });
  await page.getByRole('button', { name: 'Reset all settings' }).click();
  assert.equal(await squareColor(page, 'a1'), BROWN_DARK);
  await eventually(async () => (await preview(page).locator('img').count()) === 0, { what: 'the default pieces' });
  assert.equal(await page.evaluate(() => localStorage.getItem('chess.settings')), '{}');
  await context.close();
});

/** Sets a page's settings in its browser before it loads (the settings page is tested above). */
function withSettings(settings) {
  return (page) =>
    page.addInitScript((s) => {
      if (!sessionStorage.getItem('settings-set')) {
        localStorage.setItem('chess.settings', s);
        sessionStorage.setItem('settings-set', '1');
      }
    }, JSON.stringify(settings));
}

test('move confirmation holds a move until Confirm, auto-queen promotes without the chooser, zen mode', async () => {
  const { alice, bob } = await pair(
    ctx,
    'Alice',
    'Bob',
    '10+5',
    withSettings({ zen: true }),
    withSettings({ confirm_move: true, auto_queen: 'always' }),
  );
  // Alice's board move is shown and waits; Bob sees nothing until she confirms.
  await clickMove(alice.page, 'e2', 'e4');
  const confirm = alice.page.getByRole('button', { name: 'Confirm e4' });
  await confirm.waitFor();
  await square(alice.page, 'e4').and(alice.page.getByLabel(/^e4, white pawn/)).waitFor();
  await new Promise((r) => setTimeout(r, 600));
  assert.deepEqual(await bob.page.getByRole('list', { name: 'Moves' }).getByRole('button').allInnerTexts(), []);
  await alice.page.getByRole('button', { name: 'Cancel' }).click();
  await square(alice.page, 'e2').and(alice.page.getByLabel(/^e2, white pawn/)).waitFor();
  await clickMove(alice.page, 'e2', 'e4');
  await alice.page.getByRole('button', { name: 'Confirm e4' }).click();
  await waitForMoves(bob.page, ['e4']);

  // Typed moves are sent as typed; the game runs to a promotion.
  const typed = ['e4', 'd5', 'exd5', 'c6', 'dxc6', 'Nf6', 'cxb7', 'Nbd7'];
  for (let i = 1; i < typed.length; i++) {
    const page = i % 2 === 0 ? alice.page : bob.page;
    if (page === bob.page) {
      // Bob is in zen mode: no move input; he moves on the board.
      const [from, to] = { d5: ['d7', 'd5'], c6: ['c7', 'c6'], Nf6: ['g8', 'f6'], Nbd7: ['b8', 'd7'] }[typed[i]];
      await clickMove(page, from, to);
    } else {
      const input = page.getByLabel('Type a move');
      await eventually(() => input.isEnabled(), { what: 'the move input to be enabled' });
      await input.fill(typed[i]);
      await input.press('Enter');
    }
    await waitForMoves(i % 2 === 0 ? bob.page : alice.page, typed.slice(0, i + 1));
  }
  // b7xa8: auto-queen promotes at once (no chooser), and the move waits for Confirm.
  await clickMove(alice.page, 'b7', 'a8');
  await alice.page.getByRole('button', { name: 'Confirm bxa8=Q' }).click();
  assert.equal(await alice.page.getByRole('dialog', { name: 'Choose a piece to promote to' }).count(), 0);
  await waitForMoves(bob.page, [...typed, 'bxa8=Q']);
  await square(bob.page, 'a8').and(bob.page.getByLabel(/^a8, white queen/)).waitFor();

  // Zen mode: Bob sees the board, clocks, moves and the game's actions, not the chat or the link.
  assert.equal(await bob.page.getByRole('heading', { name: /chat/i }).count(), 0);
  assert.equal(await bob.page.getByText('Link to this game').count(), 0);
  assert.equal(await bob.page.getByLabel('Type a move').count(), 0);
  assert.equal(await bob.page.getByRole('button', { name: 'Resign' }).isVisible(), true);
  assert.equal(await bob.page.locator('.clock').count(), 2);
  await screenshot(bob.page, 'settings-zen');
  await bob.page.getByRole('button', { name: 'Leave zen mode' }).click();
  await bob.page.getByText('Link to this game').waitFor();
  assert.equal(await alice.page.getByText('Link to this game').count(), 1);
  await alice.context.close();
  await bob.context.close();
});

test("an account's settings follow it to a fresh browser context after login", async () => {
  const dora = await openPlayer(ctx.browser, ctx.server, 'Dora', '/');
  await registerAccount(dora.page, 'dora_e2e', PASSWORD);
  await dora.page.getByRole('link', { name: 'Settings' }).click();
  await dora.page.getByText('saved to your account').waitFor();
  await dora.page.getByRole('radio', { name: 'Green' }).check();
  await dora.page.getByRole('radio', { name: 'Merida' }).check();
  await dora.page.getByRole('radio', { name: 'Dark' }).check();
  await dora.page.getByLabel(/^Confirm moves/).check();
  // Saved on the server by now: a reload (a new connection, the same session) gets it back.
  await dora.page.reload();
  await dora.page.getByRole('status').filter({ hasText: 'Online' }).waitFor();
  assert.equal(await dora.page.getByRole('radio', { name: 'Green' }).isChecked(), true);

  // A fresh browser with settings of its own, then a login there.
  const other = await openPlayer(ctx.browser, ctx.server, 'Elsewhere', '/settings', DESKTOP);
  await other.page.getByRole('radio', { name: 'Purple' }).check();
  await other.page.getByLabel('Sound volume').fill('10');
  await other.page.getByRole('link', { name: 'Account' }).click();
  const form = other.page.locator('form').filter({ has: other.page.getByRole('button', { name: 'Log in' }) });
  await form.getByLabel('Username').fill('dora_e2e');
  await form.getByLabel('Password').fill(PASSWORD);
  await form.getByRole('button', { name: 'Log in' }).click();
  await other.page.getByText('You are logged in.').waitFor();
  await other.page.getByRole('link', { name: 'Settings' }).click();
  // The server's copy wins; what it does not have (the volume) stays this browser's.
  await eventually(async () => (await squareColor(other.page, 'a1')) === GREEN_DARK, { what: "the account's board" });
  assert.equal(await other.page.getByRole('radio', { name: 'Merida' }).isChecked(), true);
  assert.equal(await other.page.getByLabel(/^Confirm moves/).isChecked(), true);
  assert.equal(await pageColor(other.page), DARK_BG);
  assert.equal(await other.page.getByLabel('Sound volume').inputValue(), '10');
  await eventually(async () => (await preview(other.page).locator('img[data-piece-set="merida"]').count()) === 32, {
    what: "the account's pieces",
  });
  // A change here is saved to the account too: Dora's first browser gets it on its next welcome.
  await other.page.getByRole('radio', { name: 'Grey' }).check();
  await eventually(
    async () => {
      await dora.page.reload();
      await dora.page.getByRole('status').filter({ hasText: 'Online' }).waitFor();
      await dora.page.getByRole('radio', { name: 'Grey' }).waitFor();
      return dora.page.getByRole('radio', { name: 'Grey' }).isChecked();
    },
    { interval: 300, what: 'the change made in the other browser' },
  );
  await dora.context.close();
  await other.context.close();
});
