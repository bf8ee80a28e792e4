/*
 * A Chess960 game in two browsers against the real server (docs/protocol.md, "Variants"):
 * Alice seeks a Chess960 game from array 692 (RBBQKNNR: the king on e1, its knights on f1 and
 * g1 beside the h1 rook, so castling is two knight moves away) through the lobby's custom game
 * form; Bob sees the variant in the seek list and joins; both game pages name the variant.
 * The board moves by the server's dests: White castles by dragging the king onto its rook
 * (e1 onto h1), Black by dragging the king two squares (e8 to g8, which no other move reads);
 * then Black resigns. A screenshot of the castled position. A From Position seek the server
 * refuses shows its reason in the form; a Three-check game counts the checks beside the
 * players and ends, in words, with the third.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { clickMove, DESKTOP, dragMove, openPlayer, screenshot, square, suite, waitForGame, waitForMoves } from './harness.mjs';

/** The lobby's custom game form of a page. */
function customForm(page) {
  return page.locator('section').filter({ has: page.getByRole('heading', { name: 'Custom game' }) });
}

/** Plays [page, from, to, san] by clicks, each seen on both pages; afterPly(san) after each. */
async function playClicks(pages, plies, played, afterPly = async () => {}) {
  for (const [page, from, to, san] of plies) {
    await clickMove(page, from, to);
    played.push(san);
    for (const p of pages) await waitForMoves(p, played);
    await afterPly(san);
  }
}

const ctx = suite();
const POSITION = '692';

test('a Chess960 game: the variant in the lobby and the game, castling by dragging the king', async () => {
  const alice = await openPlayer(ctx.browser, ctx.server, 'Alice', '/', DESKTOP);
  const bob = await openPlayer(ctx.browser, ctx.server, 'Bob', '/', DESKTOP);
  const form = customForm(alice.page);
  await form.getByLabel('Minutes per side').fill('5');
  await form.getByLabel('Increment (seconds)').fill('0');
  await form.getByLabel('Variant').selectOption('chess960');
  await form.getByLabel(/^Chess960 position/).fill(POSITION);
  await form.getByRole('radio', { name: 'White' }).check();
  await form.getByRole('button', { name: 'Create seek' }).click();

  // Bob's lobby lists the seek with its variant and array.
  const row = bob.page.locator('.seek-table tr').filter({ hasText: 'Alice' });
  await row.getByText(`Chess960 #${POSITION}`).waitFor();
  await bob.page.getByRole('button', { name: `Join Alice's 5+0 Chess960 #${POSITION} game` }).click();
  const [gameA, gameB] = await Promise.all([waitForGame(alice.page), waitForGame(bob.page)]);
  assert.equal(gameA, gameB);
  for (const p of [alice.page, bob.page]) await p.locator('.game-meta').filter({ hasText: `Chess960 #${POSITION}` }).waitFor();

  // The array as the server set it up: bishops on b1 and c1, the queen on d1, knights on f1, g1.
  for (const [sq, piece] of [['a1', 'white rook'], ['b1', 'white bishop'], ['c1', 'white bishop'], ['d1', 'white queen'],
    ['e1', 'white king'], ['f1', 'white knight'], ['g1', 'white knight'], ['h1', 'white rook'], ['f8', 'black knight']]) {
    await alice.page.getByLabel(new RegExp(`^${sq}, ${piece}`)).waitFor();
  }

  const plies = [
    [alice.page, 'f1', 'g3', 'Ng3'],
    [bob.page, 'f8', 'g6', 'Ng6'],
    [alice.page, 'g1', 'f3', 'Nf3'],
    [bob.page, 'g8', 'f6', 'Nf6'],
  ];
  const played = [];
  await playClicks([alice.page, bob.page], plies, played);

  // The king's destinations (the server's dests): its rook's square and its own g1.
  await square(alice.page, 'e1').click();
  await alice.page.getByLabel(/^h1, white rook, legal move/).waitFor();
  await alice.page.getByLabel(/^g1, empty, legal move/).waitFor();
  await square(alice.page, 'e1').click(); // unselected

  // White: the king dragged onto its own rook.
  await dragMove(alice.page, 'e1', 'h1');
  played.push('O-O');
  await waitForMoves(bob.page, played);
  await alice.page.getByLabel(/^g1, white king/).waitFor();
  await alice.page.getByLabel(/^f1, white rook/).waitFor();
  // Black: the king dragged two squares.
  await dragMove(bob.page, 'e8', 'g8');
  played.push('O-O');
  await waitForMoves(alice.page, played);
  for (const p of [alice.page, bob.page]) {
    await p.getByLabel(/^g8, black king/).waitFor();
    await p.getByLabel(/^f8, black rook/).waitFor();
  }
  await screenshot(alice.page, 'game-chess960');

  await bob.page.getByRole('button', { name: 'Resign' }).click();
  await bob.page.getByRole('button', { name: 'Yes, resign' }).click();
  for (const p of [alice.page, bob.page]) {
    await p.getByText('White wins').waitFor();
    await p.getByText('Black resigned').waitFor();
  }
  // The ended game still names its variant.
  await alice.page.locator('.game-over .game-meta').filter({ hasText: `Chess960 #${POSITION}` }).waitFor();
  await alice.context.close();
  await bob.context.close();
});

test('a From Position start the server refuses says why in the form', async () => {
  const carol = await openPlayer(ctx.browser, ctx.server, 'Carol', '/', DESKTOP);
  const form = customForm(carol.page);
  await form.getByLabel('Variant').selectOption('fromPosition');
  await form.getByLabel('Starting position (FEN)').fill('not a position');
  await form.getByRole('button', { name: 'Create seek' }).click();
  await form.getByRole('alert').filter({ hasText: 'not a legal chess position' }).waitFor();
  // Black is mated already: the game would be over before its first move.
  await form.getByLabel('Starting position (FEN)').fill('7k/6Q1/6K1/8/8/8/8/8 b - - 0 1');
  await form.getByRole('button', { name: 'Create seek' }).click();
  await form.getByRole('alert').filter({ hasText: 'would be over before its first move' }).waitFor();
  await carol.context.close();
});

test('Three-check: the checks counted beside the players, the third one wins', async () => {
  const alice = await openPlayer(ctx.browser, ctx.server, 'Erin', '/', DESKTOP);
  const bob = await openPlayer(ctx.browser, ctx.server, 'Finn', '/', DESKTOP);
  const form = customForm(alice.page);
  await form.getByLabel('Variant').selectOption('threeCheck');
  await form.getByRole('radio', { name: 'White' }).check();
  await form.getByRole('button', { name: 'Create seek' }).click();
  await bob.page.locator('.seek-table tr').filter({ hasText: 'Erin' }).getByText('Three-check').waitFor();
  await bob.page.getByRole('button', { name: /^Join Erin's .* Three-check game$/ }).click();
  await Promise.all([waitForGame(alice.page), waitForGame(bob.page)]);
  await alice.page.locator('.game-meta').filter({ hasText: 'Three-check' }).waitFor();
  const white = alice.page.locator('.player-bar[data-color="white"] .checks-given');
  await white.filter({ hasText: '+0' }).waitFor();
  const plies = [
    [alice.page, 'e2', 'e4', 'e4'],
    [bob.page, 'e7', 'e5', 'e5'],
    [alice.page, 'd1', 'h5', 'Qh5'],
    [bob.page, 'b8', 'c6', 'Nc6'],
    [alice.page, 'h5', 'f7', 'Qxf7+'],
    [bob.page, 'e8', 'f7', 'Kxf7'],
    [alice.page, 'f1', 'c4', 'Bc4+'],
    [bob.page, 'd7', 'd5', 'd5'],
    [alice.page, 'c4', 'd5', 'Bxd5+'],
  ];
  const played = [];
  await playClicks([alice.page, bob.page], plies, played, async (san) => {
    if (san === 'Bc4+') await bob.page.locator('.player-bar[data-color="white"] .checks-given').filter({ hasText: '+2' }).waitFor();
  });
  for (const p of [alice.page, bob.page]) {
    await p.getByText('White wins').waitFor();
    await p.getByText('White gave the third check').waitFor();
  }
  await white.filter({ hasText: '+3' }).waitFor();
  await alice.context.close();
  await bob.context.close();
});
