/*
 * Free analysis in a real browser against the real server's engine (analyse / analysis_stop):
 * on a finished game's page a player switches the analysis on, sees the evaluation bar, the
 * score with its depth and the principal variation in SAN deepen; browsing to an earlier move
 * analyses that position instead; two lines on request; "Stop analysis" cancels it.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { clickMove, eventually, openPlayer, pair, resignAfterOneMove, screenshot, suite } from './harness.mjs';

const ctx = suite();

/** The depth in the panel's status ("Analysing… depth 7"), or 0. */
async function depthShown(panel) {
  const text = await panel.getByRole('status').innerText();
  const m = text.match(/depth (\d+)/);
  return m ? Number(m[1]) : 0;
}

test('analysis of a finished game: live lines, another position, two lines, stop', async () => {
  const { alice, bob } = await pair(ctx, 'Ada', 'Bo', '5+0');
  try {
    await resignAfterOneMove(alice, bob);
    const page = alice.page;

    const panel = page.getByRole('region', { name: 'Analysis' });
    await panel.getByRole('button', { name: 'Analyse' }).click();
    // The search deepens: the depth grows, with a score and a line in SAN from move 2 (White).
    const first = await eventually(async () => (await depthShown(panel)) >= 2 && (await depthShown(panel)), {
      what: 'a first depth',
      timeout: 15000,
    });
    await eventually(async () => (await depthShown(panel)) > first, { what: 'a deeper search', timeout: 15000 });
    await panel.getByRole('meter', { name: 'Evaluation' }).waitFor();
    const line = await panel.getByRole('list', { name: 'Engine lines' }).getByRole('listitem').first().innerText();
    assert.match(line, /^[+-]?\d+\.\d|^#-?\d/, `a score first: ${line}`);
    assert.match(line, /depth \d+/);
    assert.match(line, /\b2\. [NBRQKa-h]/, `a line from White's second move: ${line}`);
    await screenshot(page, 'game-analysis');

    // Back to the position after 1. e4: Black to move, the line starts "1… ".
    await page.getByRole('button', { name: 'Previous move' }).click();
    await eventually(
      async () => /^.*\n?.*1… /s.test(await panel.getByRole('list', { name: 'Engine lines' }).innerText()),
      { what: 'a line for Black after 1. e4', timeout: 15000 },
    );

    // Two lines.
    await panel.getByRole('combobox', { name: 'Lines' }).selectOption('2');
    await eventually(
      async () => (await panel.getByRole('list', { name: 'Engine lines' }).getByRole('listitem').count()) === 2,
      { what: 'two lines', timeout: 15000 },
    );

    // Stop: it says where it stopped, and the depth stays.
    await panel.getByRole('button', { name: 'Stop analysis' }).click();
    await panel.getByRole('status').filter({ hasText: /^Stopped/ }).waitFor();
    const stoppedAt = await panel.getByRole('status').innerText();
    await new Promise((r) => setTimeout(r, 700));
    assert.equal(await panel.getByRole('status').innerText(), stoppedAt, 'nothing arrives after the stop');
    await panel.getByRole('button', { name: 'Analyse' }).waitFor();
  } finally {
    await alice.context.close();
    await bob.context.close();
  }
});

test('the analysis board: a position by URL, mate found, a move played, the server refusing a position', async () => {
  const mateIn1 = '6k1/5ppp/8/8/8/8/5PPP/R5K1 w - - 0 1';
  const ann = await openPlayer(ctx.browser, ctx.server, 'Ann', `/analysis?fen=${encodeURIComponent(mateIn1)}`);
  const page = ann.page;
  try {
    await page.getByRole('heading', { name: 'Analysis board' }).waitFor();
    assert.equal(await page.getByLabel('Current FEN').inputValue(), mateIn1);
    const panel = page.getByRole('region', { name: 'Analysis', exact: true });
    await panel.getByRole('button', { name: 'Analyse' }).click();
    const lines = panel.getByRole('list', { name: 'Engine lines' });
    await eventually(async () => /^#1\b[^]*1\. Ra8#/.test(await lines.innerText()), {
      what: 'mate in one, 1. Ra8#',
      timeout: 15000,
    });
    await panel.getByRole('meter', { name: 'Evaluation' }).waitFor();

    // A move on the board (White plays h3 instead): Black to move, analysed in turn.
    await clickMove(page, 'h2', 'h3');
    await page.getByRole('group', { name: 'Moves' }).getByRole('button', { name: '1. h3' }).waitFor();
    await eventually(async () => /1… /.test(await lines.innerText()), { what: 'a line for Black', timeout: 15000 });

    // A FEN chess.js reads but the server refuses (the side not to move is in check).
    await page.getByLabel('Set a position (FEN)').fill('4k3/8/8/8/8/8/4R3/4K3 w - - 0 1');
    await page.getByRole('button', { name: 'Set position' }).click();
    await panel.getByRole('alert').waitFor({ timeout: 15000 });
    assert.match(await panel.getByRole('alert').innerText(), /\w/);
    // Not a FEN at all: the page says so itself.
    await page.getByLabel('Set a position (FEN)').fill('not a position');
    await page.getByRole('button', { name: 'Set position' }).click();
    await page.getByText('This is not a FEN the board can read.').waitFor();
    await new Promise((r) => setTimeout(r, 400)); // the board's animation
    await screenshot(page, 'analysis-board');
  } finally {
    await ann.context.close();
  }
});
