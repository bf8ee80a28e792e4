/*
 * An arena tournament in three browsers against the real server (docs/tournaments.md): Alice and
 * Bob register; Alice opens Tournaments from the header, the server refuses a one-letter name
 * (its reason shown in the form), then she creates a 3+0 arena starting at once and joins it on
 * its page. Cleo, a guest, watches the tournament's page. Bob joins from the list; the arena
 * pairs them and both pages open the game, which names the arena. White goes berserk (both
 * pages show the mark and White's halved clock, and the button goes), 1. e4 e5, Black resigns.
 * Cleo's standings change as it ends (the winner 2 points, the loser 0, each with its sheet);
 * the arena pairs them again at once and both pages open the new game; from there each goes
 * back to the tournament's page, which says its place and links the game in progress. Bob
 * pauses and Cleo sees him paused. Screenshots: Black's game page after White's berserk
 * (arena-game-desktop.png) and Cleo's standings after the game (tournament-desktop.png).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { clickMove, eventually, openPlayer, registerAccount, screenshot, suite, waitForGame, waitForMoves } from './harness.mjs';

const ctx = suite();
const PASSWORD = 'correct horse battery';
const NAME = 'E2E Arena';

/** The standings row of a player on a tournament page. */
function standingsRow(page, name) {
  return page.locator('table.standings tbody tr').filter({ hasText: name });
}

/** A row's score and sheet, as shown. */
async function scoreOf(page, name) {
  const row = standingsRow(page, name);
  return { score: await row.locator('.score-points').innerText(), sheet: await row.locator('.sheet').innerText() };
}

test('an arena: created, joined, a berserk game played, the standings change', async () => {
  const alice = await openPlayer(ctx.browser, ctx.server, 'Alice');
  const bob = await openPlayer(ctx.browser, ctx.server, 'Bob');
  await registerAccount(alice.page, 'alice_arena', PASSWORD);
  await registerAccount(bob.page, 'bob_arena', PASSWORD);

  // Alice creates the arena; the server's refusal of a bad name first.
  await alice.page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Tournaments' }).click();
  const form = alice.page.locator('form').filter({ has: alice.page.getByRole('button', { name: 'Create the tournament' }) });
  await form.getByLabel('Name').fill('x');
  await form.getByRole('button', { name: 'Create the tournament' }).click();
  assert.match(await form.getByRole('alert').innerText(), /^An arena needs a clock .*name of 2 to/);
  await form.getByLabel('Name').fill(NAME);
  await form.getByLabel('Clock').selectOption('3+0');
  await form.getByLabel('Length (minutes)').fill('10');
  await form.getByLabel('Starts').selectOption({ label: 'At once' });
  await form.getByRole('button', { name: 'Create the tournament' }).click();
  await alice.page.waitForURL(/\/tournament\/[A-Za-z0-9]+$/);
  const arenaPath = new URL(alice.page.url()).pathname;
  await alice.page.getByRole('heading', { name: NAME }).waitFor();
  await alice.page.getByText('Nobody has joined yet.').waitFor();
  // It starts within a second: the countdown is to its end then.
  await alice.page.getByRole('timer').filter({ hasText: /^Ends in (10:00|9:[0-5]\d)$/ }).waitFor();
  await alice.page.getByRole('button', { name: 'Join', exact: true }).click();
  await alice.page.getByRole('status').filter({ hasText: 'You are 1st with 0 points' }).waitFor();

  // Cleo, a guest, watches its page: she may not join.
  const cleo = await openPlayer(ctx.browser, ctx.server, 'Cleo', arenaPath);
  await standingsRow(cleo.page, 'alice_arena').waitFor();
  await cleo.page.getByText(/Tournaments are played by accounts/).waitFor();
  assert.equal(await cleo.page.getByRole('button', { name: 'Join', exact: true }).count(), 0);

  // Bob joins from the list; the arena pairs them and both pages open the game.
  await bob.page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Tournaments' }).click();
  const row = bob.page.locator('table.arena-table tr').filter({ hasText: NAME });
  await row.filter({ hasText: '3+0' }).waitFor();
  await row.getByRole('button', { name: `Join ${NAME}` }).click();
  const [gameA, gameB] = await Promise.all([waitForGame(alice.page), waitForGame(bob.page)]);
  assert.equal(gameA, gameB);
  await eventually(async () => (await standingsRow(cleo.page, 'bob_arena').innerText()).includes('playing'), {
    what: 'Bob playing in the standings',
  });

  // Who has White: the board says so.
  const aliceWhite = (await alice.page.locator('.player-bar.player-bottom').getAttribute('data-color')) === 'white';
  const [white, black] = aliceWhite ? [alice, bob] : [bob, alice];
  const [winner, loser] = aliceWhite ? ['alice_arena', 'bob_arena'] : ['bob_arena', 'alice_arena'];
  for (const p of [white.page, black.page]) await p.getByRole('link', { name: NAME }).waitFor();

  // White goes berserk: half of 3 minutes, seen on both pages; the button goes.
  await white.page.getByRole('button', { name: 'Berserk' }).click();
  for (const p of [white.page, black.page]) {
    await p.getByRole('img', { name: 'white went berserk' }).waitFor();
    await p.getByRole('timer', { name: 'white clock' }).filter({ hasText: '1:30' }).waitFor();
    await p.getByRole('timer', { name: 'black clock' }).filter({ hasText: '3:00' }).waitFor();
  }
  assert.equal(await white.page.getByRole('button', { name: 'Berserk' }).count(), 0);
  assert.equal(await black.page.getByRole('button', { name: 'Berserk' }).count(), 1);
  await screenshot(black.page, 'arena-game-desktop');

  await clickMove(white.page, 'e2', 'e4');
  await waitForMoves(black.page, ['e4']);
  await clickMove(black.page, 'e7', 'e5');
  await waitForMoves(white.page, ['e4', 'e5']);
  await black.page.getByRole('button', { name: 'Resign' }).click();
  await black.page.getByRole('button', { name: 'Yes, resign' }).click();

  // Cleo's standings change: the winner first with 2 points, the loser 0.
  await eventually(async () => (await scoreOf(cleo.page, winner)).score === '2', { what: 'the winner’s 2 points' });
  assert.deepEqual(await scoreOf(cleo.page, winner), { score: '2', sheet: '2' });
  assert.deepEqual(await scoreOf(cleo.page, loser), { score: '0', sheet: '0' });
  assert.match(await cleo.page.locator('table.standings tbody tr').first().innerText(), new RegExp(winner));
  await screenshot(cleo.page, 'tournament-desktop');

  // Paired again at once: both pages open the new game.
  const next = await Promise.all(
    [alice.page, bob.page].map(async (p) => {
      await p.waitForURL((u) => /\/game\/[A-Za-z0-9]+$/.test(u.pathname) && !u.pathname.endsWith(`/${gameA}`));
      return new URL(p.url()).pathname;
    }),
  );
  assert.equal(next[0], next[1]);

  // Back on the tournament's page: each one's place and the game in progress.
  for (const [p, name] of [[alice.page, 'alice_arena'], [bob.page, 'bob_arena']]) {
    await p.getByRole('link', { name: NAME }).click();
    await p.waitForURL((u) => u.pathname === arenaPath);
    const place = name === winner ? 'You are 1st with 2 points' : 'You are 2nd with 0 points';
    await p.getByRole('status').filter({ hasText: place }).waitFor();
    assert.equal(await p.getByRole('link', { name: 'Your game is on: open it' }).getAttribute('href'), next[0]);
  }

  // Bob pauses: his page says so, and Cleo sees him paused.
  await bob.page.getByRole('button', { name: 'Pause' }).click();
  await bob.page.getByRole('status').filter({ hasText: 'paused' }).waitFor();
  await bob.page.getByRole('button', { name: 'Join again' }).waitFor();
  await eventually(async () => (await standingsRow(cleo.page, 'bob_arena').innerText()).includes('paused'), {
    what: 'Bob paused in the standings',
  });

  // The game link opens the game in progress.
  await alice.page.getByRole('link', { name: 'Your game is on: open it' }).click();
  await alice.page.waitForURL((u) => u.pathname === next[0]);
});
