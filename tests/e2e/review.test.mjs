/*
 * The computer analysis of a finished game, in a real browser against the real server (with
 * 50,000 nodes a position, so it takes about a second): an imported game opened on its page,
 * the analysis requested, its graph drawn; the blunder 3... Nf6 found on the graph, in the move
 * list and by the accuracy panel's "1 blunder" and the n key; "Blunder. g6 was best." said and
 * the better move drawn as an arrow on the board.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { eventually, importPgn, openPlayer, screenshot, suite } from './harness.mjs';

const ctx = suite(['--game-analysis-nodes', '50000']);

const GAME = '[White "Ann"]\n[Black "Ben"]\n[Result "1-0"]\n\n1. e4 e5 2. Qh5 Nc6 3. Bc4 Nf6 4. Qxf7# 1-0\n';

/** The move list's current move, by its name. */
async function currentMove(page) {
  const list = page.getByRole('list', { name: 'Moves' });
  const current = await list.locator('[aria-current="true"]').evaluateAll((bs) => bs.map((b) => b.getAttribute('aria-label')));
  return current[0] ?? null;
}

/** Waits until the move shown is `name` ("3... Nf6, blunder"). */
async function waitForCurrent(page, name) {
  await eventually(async () => (await currentMove(page)) === name, { what: `${name} shown` });
}

test('request the analysis, see the graph, click the blunder, see the better move', async () => {
  const ann = await openPlayer(ctx.browser, ctx.server, 'Ivo');
  const page = ann.page;
  try {
    const id = await importPgn(page, GAME);
    await page.goto(`/game/${id}`);
    const review = page.getByRole('region', { name: 'Computer analysis' });
    await review.getByRole('button', { name: 'Request a computer analysis' }).click();

    // The graph once done (a progress bar meanwhile, if the page is quick enough to show it).
    const graph = page.getByRole('group', { name: /^Evaluation graph: / });
    await graph.waitFor({ timeout: 30000 });
    assert.equal(await review.getByRole('progressbar').count(), 0);
    // The end of the game shown; its move list marks the blunder.
    await page.getByRole('list', { name: 'Moves' }).getByRole('button', { name: '3... Nf6, blunder' }).waitFor();
    assert.equal(await currentMove(page), '4. Qxf7#');
    await screenshot(page, 'review-done');

    // The blunder on the graph: its words, the line from the position before, the arrow.
    await graph.getByRole('button', { name: '3... Nf6, blunder' }).click();
    await waitForCurrent(page, '3... Nf6, blunder');
    await review.getByText('Blunder. g6 was best.').waitFor();
    await review.getByText(/^Best line: 3… g6 /).waitFor();
    await page.locator('svg marker[id$="-arrowhead-0-g7-g6"]').waitFor({ state: 'attached' });
    await page.getByText('Arrow: g6 was best, g7 to g6.').waitFor({ state: 'attached' });
    await new Promise((r) => setTimeout(r, 300)); // the board's animation
    await screenshot(page, 'review-blunder');
    await graph.scrollIntoViewIfNeeded();
    await screenshot(page, 'review-graph');

    // Elsewhere, no arrow and the evaluation instead.
    await page.keyboard.press('Home');
    await waitForCurrent(page, null);
    await review.getByText(/^Evaluation [+-]\d/).waitFor();
    assert.equal(await page.locator('svg marker[id*="-arrowhead-"]').count(), 0);

    // The accuracy panel: Black's blunder, and the n key, go to it.
    const black = review.getByRole('group', { name: 'Black: Ben' });
    await black.getByText('average centipawn loss').waitFor();
    await black.getByRole('button', { name: '1 blunder' }).click();
    await waitForCurrent(page, '3... Nf6, blunder');
    assert.equal(await review.getByRole('group', { name: 'White: Ann' }).getByRole('button').count(), 0);
    await page.keyboard.press('End');
    await waitForCurrent(page, '4. Qxf7#');
    await page.keyboard.press('n');
    await waitForCurrent(page, '3... Nf6, blunder');

    // A click on the graph's far left goes to the start.
    const box = await graph.boundingBox();
    await graph.click({ position: { x: 2, y: box.height / 2 } });
    await waitForCurrent(page, null);

    // Opened again (a new page), the analysis is read at once: no button.
    await page.reload();
    await graph.waitFor();
    assert.equal(await review.getByRole('button', { name: 'Request a computer analysis' }).count(), 0);
  } finally {
    await ann.context.close();
  }
});
