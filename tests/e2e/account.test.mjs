/*
 * Accounts in a real browser, on a server with a database: a guest registers, plays, sees the
 * game in their profile's history and opens it; a game only in the archive opens read-only; the
 * player logs out and logs in again. On a server without accounts the page must show the
 * server's refusal instead, and the rest is skipped.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  eventually,
  importPgn,
  moveList,
  openPlayer,
  pair,
  registerAccount,
  resignAfterOneMove,
  screenshot,
  suite,
  waitForMoves,
} from './harness.mjs';

const ctx = suite();

const OPERA_GAME = `[Event "Paris"]
[Site "Paris FRA"]
[Date "1858.??.??"]
[Round "?"]
[White "Paul Morphy"]
[Black "Duke Karl / Count Isouard"]
[Result "1-0"]

1. e4 e5 2. Nf3 d6 3. d4 Bg4 4. dxe5 Bxf3 5. Qxf3 dxe5 6. Bc4 Nf6 7. Qb3 Qe7 8. Nc3 c6
9. Bg5 b5 10. Nxb5 cxb5 11. Bxb5+ Nbd7 12. O-O-O Rd8 13. Rxd7 Rxd7 14. Rd1 Qe6 15. Bxd7+ Nxd7
16. Qb8+ Nxb8 17. Rd8# 1-0
`;

const PASSWORD = 'correct horse battery';

test('register, play, the profile and its history, an archived game, log out and in', async (t) => {
  const { alice, bob, gameId } = await pair(ctx, 'Anna', 'Boris', '3+2');
  await resignAfterOneMove(alice, bob);

  const page = alice.page;
  await page.getByRole('link', { name: 'Account' }).click();
  await page.getByRole('heading', { name: 'Create an account' }).waitFor();
  const form = page.locator('form').filter({ has: page.getByRole('button', { name: 'Register' }) });
  await form.getByLabel('Username').fill('anna_e2e');
  await form.getByLabel('Password').fill(PASSWORD);
  await form.getByRole('button', { name: 'Register' }).click();
  const answer = await Promise.race([
    page.getByText('You are logged in.').waitFor().then(() => 'ok'),
    form.getByRole('alert').waitFor().then(async () => form.getByRole('alert').innerText()),
  ]);
  if (answer !== 'ok') {
    assert.equal(answer, 'Accounts are not available on this server yet.');
    t.skip(`the server has no accounts: "${answer}" is shown`);
    return;
  }
  await page.getByRole('heading', { name: 'anna_e2e' }).waitFor();
  await page.getByRole('status').filter({ hasText: 'Your account is ready.' }).waitFor();

  // The profile: ratings and the finished game.
  await page.getByRole('link', { name: 'Your profile' }).click();
  await page.getByText('Account anna_e2e').waitFor();
  await page.getByRole('rowheader', { name: 'Blitz' }).waitFor();
  const row = page.getByRole('link', { name: / vs Boris/ });
  await row.waitFor();
  assert.match(await row.innerText(), /1-0 · White wins/);
  await screenshot(page, 'profile-desktop');

  await row.click();
  await page.waitForURL(new RegExp(`/game/${gameId}$`));
  await waitForMoves(page, ['e4', 'e5']);
  await page.getByText('Black resigned').waitFor();

  // A game only in the archive (imported, never played here) opens read-only.
  const visitor = await openPlayer(ctx.browser, ctx.server, 'Vera');
  const stored = await importPgn(visitor.page, OPERA_GAME);
  await visitor.page.goto(`/game/${stored}`);
  await visitor.page.getByText('from the archive').waitFor();
  await visitor.page.getByText('Paul Morphy').waitFor();
  await visitor.page.getByText('White wins').waitFor();
  const moves = await eventually(async () => {
    const list = await moveList(visitor.page);
    return list.length === 33 && list;
  }, { what: "the archived game's 33 moves" });
  assert.equal(moves[32], 'Rd8#');
  await visitor.page.getByRole('button', { name: 'First position' }).click();
  await visitor.page.getByLabel(/^e2, white pawn/).waitFor();
  await visitor.context.close();

  // Log out (a new guest), then log in again.
  await page.getByRole('link', { name: 'Account' }).click();
  await page.getByRole('button', { name: 'Log out' }).click();
  await page.getByRole('heading', { name: 'Log in' }).waitFor();
  const login = page.locator('form').filter({ has: page.getByRole('button', { name: 'Log in' }) });
  await login.getByLabel('Username').fill('anna_e2e');
  await login.getByLabel('Password').fill('wrong password');
  await login.getByRole('button', { name: 'Log in' }).click();
  await login.getByRole('alert').filter({ hasText: 'Wrong username or password.' }).waitFor();
  await login.getByLabel('Password').fill(PASSWORD);
  await login.getByRole('button', { name: 'Log in' }).click();
  await page.getByText('You are logged in.').waitFor();
  await page.getByRole('heading', { name: 'anna_e2e' }).waitFor();
  // The lobby shows the leaderboard of a server that keeps ratings.
  await page.getByRole('link', { name: 'Play' }).click();
  await page.getByRole('heading', { name: 'Top players' }).waitFor();
  await page.getByRole('tab', { name: 'rapid' }).click();
  await page.getByRole('tab', { name: 'rapid', selected: true }).waitFor();
  for (const s of [alice, bob]) await s.context.close();
});

/** Logs in through the account page's form; the form of the page, for what comes next. */
async function logInHere(page, username, password) {
  await page.getByRole('link', { name: 'Account' }).click();
  const form = page.locator('form').filter({ has: page.getByRole('button', { name: 'Log in' }) });
  await form.getByLabel('Username').fill(username);
  await form.getByLabel('Password').fill(password);
  await form.getByRole('button', { name: 'Log in' }).click();
  return form;
}

test("an account's settings: another session logged out, an API token, the password changed, the account deleted", async (t) => {
  const cora = await openPlayer(ctx.browser, ctx.server, 'Cora');
  const page = cora.page;
  await registerAccount(page, 'cora_e2e', PASSWORD);
  // A second session, in another browser.
  const laptop = await openPlayer(ctx.browser, ctx.server, 'Laptop');
  await logInHere(laptop.page, 'cora_e2e', PASSWORD);
  await laptop.page.getByText('You are logged in.').waitFor();
  await laptop.page.getByRole('heading', { name: 'cora_e2e' }).waitFor();

  // Both sessions are listed; this browser's is marked and cannot be revoked from the list.
  await page.getByRole('link', { name: 'Play' }).click();
  await page.getByRole('link', { name: 'Account' }).click();
  const sessions = page.getByRole('list', { name: 'Sessions' });
  await eventually(async () => (await sessions.getByRole('listitem').count()) === 2, { what: 'two sessions' });
  const mine = sessions.getByRole('listitem').filter({ hasText: 'this browser' });
  assert.equal(await mine.getByRole('button', { name: 'Revoke' }).count(), 0);
  await screenshot(page, 'account-settings');
  const other = sessions.getByRole('listitem').filter({ hasNotText: 'this browser' });
  await other.getByRole('button', { name: 'Revoke' }).click();
  await eventually(async () => (await sessions.getByRole('listitem').count()) === 1, { what: 'one session left' });
  // The other browser is logged out at once: it continues as a new guest.
  await laptop.page.getByRole('heading', { name: 'Create an account' }).waitFor();
  await laptop.page.getByText('You play as a guest').waitFor();

  // A personal API token: a checkbox per scope, the text shown once, listed without it, revoked.
  const api = page.locator('section').filter({ has: page.getByRole('heading', { name: 'API access tokens' }) });
  await api.getByText('No API tokens yet.').waitFor();
  await api.getByLabel('Token description').fill('my e2e app');
  await api.getByRole('checkbox', { name: 'Play games with the bot API (bot:play)' }).check();
  await api.getByRole('checkbox', { name: 'Read incoming challenges (challenge:read)' }).check();
  await api.getByRole('button', { name: 'Create token' }).click();
  const shownToken = api.getByRole('region', { name: 'New API token my e2e app' });
  await shownToken.getByText('you will not see it again').waitFor();
  const apiToken = await shownToken.getByRole('textbox', { name: 'API token my e2e app' }).inputValue();
  assert.match(apiToken, /^[A-Za-z0-9]{32}$/);
  const row = api.getByRole('listitem', { name: 'API token my e2e app' });
  await row.getByText('challenge:read, bot:play', { exact: false }).waitFor();
  await screenshot(page, 'account-api-token');
  await shownToken.getByRole('button', { name: 'I have copied it, hide it' }).click();
  assert.equal(await page.getByText(apiToken).count(), 0);
  await row.getByRole('button', { name: 'Revoke the API token my e2e app' }).click();
  await row.getByRole('button', { name: 'Yes, revoke my e2e app' }).click();
  await api.getByText('No API tokens yet.').waitFor();

  // The change (each password attempt counts against the username's login limit: 5 at once, so
  // this test makes no more; wrong passwords are the Vitest and integration tests' business).
  const change = page.locator('form').filter({ has: page.getByRole('button', { name: 'Change password' }) });
  await change.getByLabel('Current password').fill(PASSWORD);
  await change.getByLabel('New password').fill('battery staple horse');
  await change.getByRole('button', { name: 'Change password' }).click();
  await change.getByText('Changed. Your other sessions are logged out.').waitFor();

  // Log out, then in: the old password fails, the new one works.
  await page.getByRole('button', { name: 'Log out' }).click();
  const form = await logInHere(page, 'cora_e2e', PASSWORD);
  await form.getByRole('alert').filter({ hasText: 'Wrong username or password.' }).waitFor();
  await logInHere(page, 'cora_e2e', 'battery staple horse');
  await page.getByText('You are logged in.').waitFor();
  await page.getByRole('heading', { name: 'cora_e2e' }).waitFor();

  // Deleting the account asks for the password and a confirmation; then a new guest.
  const remove = page.locator('form').filter({ has: page.getByRole('button', { name: 'Delete my account' }) });
  await remove.getByLabel('Password').fill('battery staple horse');
  await remove.getByRole('button', { name: 'Delete my account' }).click();
  await page.getByRole('button', { name: 'Yes, delete my account' }).click();
  await page.getByRole('status').filter({ hasText: 'Your account is deleted.' }).waitFor();
  await page.getByText('You play as a guest').waitFor();
  await page.getByRole('heading', { name: 'Create an account' }).waitFor();
  for (const s of [cora, laptop]) await s.context.close();
  t.diagnostic('sessions, an API token, password change and deletion through the account page');
});
