/*
 * The analysis board as a player uses it, in a real browser against the real server: a finished
 * game opened on the board at the move shown with all its moves; a pasted PGN with a variation,
 * browsed back by key and button, a variation added on the board and made the main line; a
 * position set up in the board editor, analysed, and the engine's best move drawn as an arrow.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { clickMove, eventually, openPlayer, pair, resignAfterOneMove, screenshot, square, suite } from './harness.mjs';

const ctx = suite();

/** The move list's moves in order, by their names ("1. e4", "1… e5"), and the current one. */
async function moves(page) {
  const list = page.getByRole('group', { name: 'Moves' });
  const names = await list.getByRole('button').evaluateAll((bs) => bs.map((b) => b.getAttribute('aria-label')));
  const current = await list.locator('[aria-current="true"]').evaluateAll((bs) => bs.map((b) => b.getAttribute('aria-label')));
  return { names, current: current[0] ?? null };
}

test('a finished game opens on the analysis board with all its moves, at the move shown', async () => {
  const { alice, bob } = await pair(ctx, 'Gil', 'Hal', '5+0');
  try {
    await resignAfterOneMove(alice, bob);
    const page = alice.page;
    await page.getByRole('button', { name: 'Previous move' }).click();
    await page.getByRole('link', { name: 'Open the game on the analysis board at this move' }).click();
    await page.getByRole('heading', { name: 'Analysis board' }).waitFor();
    assert.deepEqual(await moves(page), { names: ['1. e4', '1… e5'], current: '1. e4' });
    assert.equal(
      await page.getByLabel('Current FEN').inputValue(),
      'rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1',
    );
  } finally {
    await alice.context.close();
    await bob.context.close();
  }
});

test('a pasted PGN with a variation, browsed and extended; a position from the editor, analysed, its best move drawn', async () => {
  const ann = await openPlayer(ctx.browser, ctx.server, 'Ivy', '/analysis');
  const page = ann.page;
  try {
    await page.getByRole('heading', { name: 'Analysis board' }).waitFor();
    // Not a PGN: said so, and nothing changes.
    await page.getByLabel('Paste a PGN').fill('1. e4 e5 2. Ke3');
    await page.getByRole('button', { name: 'Load PGN' }).click();
    await page.getByText('"Ke3" is not a legal move for White at move 2.').waitFor();

    await page.getByLabel('Paste a PGN').fill('[Event "Club"]\n\n1. e4 e5 (1... c5 2. Nf3) 2. Nf3 {develops} Nc6 *');
    await page.getByRole('button', { name: 'Load PGN' }).click();
    await eventually(async () => (await moves(page)).current === '2… Nc6', { what: 'the PGN loaded, at its end' });
    assert.deepEqual((await moves(page)).names, ['1. e4', '1… e5', '1… c5', '2. Nf3', '2. Nf3', '2… Nc6']);
    await page.getByRole('group', { name: 'Variation' }).getByRole('button', { name: '1… c5' }).waitFor();
    await page.getByText('develops').waitFor();

    // Back by key and by button.
    await page.keyboard.press('ArrowLeft');
    await eventually(async () => (await moves(page)).current === '2. Nf3', { what: 'back one move by ←' });
    await page.getByRole('button', { name: 'Previous move' }).click();
    await eventually(async () => (await moves(page)).current === '1… e5', { what: 'back one move by the button' });

    // A move other than the next one (2. Bc4 instead of 2. Nf3) starts a variation.
    await clickMove(page, 'f1', 'c4');
    await eventually(async () => (await moves(page)).current === '2. Bc4', { what: 'the new move shown' });
    const variations = page.getByRole('group', { name: 'Variation' });
    await variations.getByRole('button', { name: '2. Bc4' }).waitFor();
    assert.deepEqual((await moves(page)).names, ['1. e4', '1… e5', '1… c5', '2. Nf3', '2. Nf3', '2. Bc4', '2… Nc6']);
    // Made the main line: it comes first.
    await page.getByRole('button', { name: 'Make main line' }).click();
    await eventually(async () => (await moves(page)).names.join(' ') === '1. e4 1… e5 1… c5 2. Nf3 2. Bc4 2. Nf3 2… Nc6', {
      what: '2. Bc4 in the main line',
    });
    await page.keyboard.press('Home');
    await eventually(async () => (await moves(page)).current === null, { what: 'the start by Home' });
    await page.keyboard.press('End');
    await eventually(async () => (await moves(page)).current === '2. Bc4', { what: 'the main line\'s end by End' });
    await screenshot(page, 'analysis-board-tree');

    // The board editor: an empty board, then a back-rank mate in one set up piece by piece.
    await page.getByRole('link', { name: 'Board editor' }).click();
    await page.getByRole('heading', { name: 'Board editor' }).waitFor();
    await page.getByRole('button', { name: 'Clear board' }).click();
    await page.getByRole('status').filter({ hasText: 'White has no king' }).waitFor();
    assert.equal(await page.getByRole('button', { name: 'Analyse this position' }).isDisabled(), true);
    const place = async (piece, squares) => {
      await page.getByRole('group', { name: 'Piece to place' }).getByRole('button', { name: piece, exact: true }).click();
      for (const sq of squares) await square(page, sq).click();
    };
    await place('white king', ['g1']);
    await place('white rook', ['a1']);
    await place('white pawn', ['f2', 'g2', 'h2']);
    await place('black king', ['g8']);
    await place('black pawn', ['f7', 'g7', 'h7']);
    const mateIn1 = '6k1/5ppp/8/8/8/8/5PPP/R5K1 w - - 0 1';
    assert.equal(await page.getByLabel('FEN', { exact: true }).inputValue(), mateIn1);
    await page.getByRole('status').filter({ hasText: 'The position can be analysed.' }).waitFor();
    await screenshot(page, 'board-editor');
    await page.getByRole('button', { name: 'Analyse this position' }).click();

    await page.getByRole('heading', { name: 'Analysis board' }).waitFor();
    assert.equal(await page.getByLabel('Current FEN').inputValue(), mateIn1);
    const panel = page.getByRole('region', { name: 'Analysis', exact: true });
    await panel.getByRole('button', { name: 'Analyse' }).click();
    // The best move, Ra8#, as an arrow from a1 to a8 (react-chessboard's SVG), said in words too.
    await page.locator('svg marker[id$="-arrowhead-0-a1-a8"]').waitFor({ state: 'attached', timeout: 15000 });
    await page.getByText('Arrow: best move Ra8#, a1 to a8.').waitFor({ state: 'attached' });
    await new Promise((r) => setTimeout(r, 300)); // the board's animation
    await screenshot(page, 'analysis-board-arrow');
  } finally {
    await ann.context.close();
  }
});
