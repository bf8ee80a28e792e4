/*
 * Accessibility in a real browser: the axe-core audit (WCAG 2.0/2.1 A and AA rules) finds no
 * serious or critical violation on the lobby (with a seek, on a phone, with a live game), a game
 * during play (a player's and a spectator's page), a finished game (with a chat line) and the
 * analysis board with its promotion chooser, the board editor, a game with its computer analysis
 * (light and dark), and on the profile, settings (light and dark), account and TV pages; two players play to checkmate by keyboard alone
 * (the board one tab stop, a cursor moved by the arrow keys, Enter to pick up and put down, a
 * premove queued the same way), every move said in words in the board's live region on the
 * three pages, the focus staying on the board as moves and the game's end arrive; a promotion
 * chosen by keyboard on the analysis board, Escape, and a mouse drag said in words; a piece put
 * on the board editor's board by keyboard.
 *
 * axe-core (a dev dependency of the client) is a browser script: its source is evaluated in the
 * page through the DevTools protocol (the server's Content-Security-Policy blocks inline
 * scripts, as it should), then axe.run() is called.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { CLIENT_DIR, dragMove, eventually, importPgn, openPlayer, pair, PHONE, screenshot, seekFromForm, suite } from './harness.mjs';

// A small node budget: a game's computer analysis takes about a second.
const ctx = suite(['--game-analysis-nodes', '50000']);
const require = createRequire(join(CLIENT_DIR, 'package.json'));
const AXE_SOURCE = readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8');
const WCAG_TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'];

/**
 * Runs the axe audit on the page as it is; fails with every serious or critical violation
 * (its id, impact, help and the nodes it found), and prints the lesser ones.
 */
async function audit(page, what) {
  // Let animations and pending renders settle (contrast is measured on what is painted).
  await page.waitForTimeout(400);
  const cdp = await page.context().newCDPSession(page);
  try {
    const loaded = await cdp.send('Runtime.evaluate', { expression: `${AXE_SOURCE};typeof axe` });
    assert.equal(loaded.result.value, 'object', `axe-core loaded on ${what}`);
  } finally {
    await cdp.detach();
  }
  const violations = await page.evaluate(async (tags) => {
    // eslint-disable-next-line no-undef
    const r = await axe.run(document, { runOnly: { type: 'tag', values: tags }, resultTypes: ['violations'] });
    return r.violations.map((v) => ({
      id: v.id,
      impact: v.impact,
      help: v.help,
      nodes: v.nodes.map((n) => ({ target: n.target.join(' '), summary: n.failureSummary })),
    }));
  }, WCAG_TAGS);
  const describe = (v) =>
    `${v.id} (${v.impact}): ${v.help}\n${v.nodes.map((n) => `    ${n.target}\n      ${(n.summary ?? '').replace(/\n/g, '\n      ')}`).join('\n')}`;
  const serious = violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
  for (const v of violations.filter((x) => !serious.includes(x))) console.log(`note: ${what}: ${describe(v)}`);
  if (serious.length) {
    await screenshot(page, `a11y-${what.replace(/\W+/g, '-')}`);
    assert.fail(`axe on ${what}: ${serious.length} serious or critical violation(s)\n${serious.map(describe).join('\n')}`);
  }
}

/** The board one reaches with the keyboard, and its live region with the moves in words. */
const board = (page) => page.getByRole('application', { name: /board/i });
const said = (page) => page.getByRole('log', { name: 'Moves said' });

/** Waits until the page's live region says exactly `words`. */
async function waitForWords(page, words) {
  await eventually(async () => (await said(page).innerText()).trim() === words, {
    what: `"${words}" said on ${page.url()}`,
  });
}

/** Starts recording everything the page's live region says (into window.saidLog). */
async function recordWords(page) {
  await said(page).waitFor({ state: 'attached' });
  await page.evaluate(() => {
    const log = document.querySelector('[role="log"][aria-label="Moves said"]');
    window.saidLog = [];
    new MutationObserver(() => {
      const text = log.textContent.trim();
      if (text) window.saidLog.push(text);
    }).observe(log, { childList: true, subtree: true, characterData: true });
  });
}

/** Asserts that the page's live region said these, in this order (a reply and a premove that
 * arrive together are said in one message, "...; ..."). */
async function assertSaid(page, expected, who) {
  const log = await page.evaluate(() => window.saidLog);
  const flat = log.join('; ');
  let at = 0;
  for (const words of expected) {
    const i = flat.indexOf(words, at);
    assert.ok(i >= 0, `${who} heard "${words}" in order; heard: ${JSON.stringify(log)}`);
    at = i + words.length;
  }
}

/** Whether the board has the focus on this page. */
async function boardFocused(page) {
  return page.evaluate(() => document.activeElement?.getAttribute('role') === 'application');
}

/** The label of the square under the keyboard's cursor (the board's active descendant). */
async function cursorLabel(page) {
  return page.evaluate(() => {
    const id = document.activeElement?.getAttribute('aria-activedescendant');
    return id ? document.getElementById(id)?.getAttribute('aria-label') : null;
  });
}

/** Presses the keys in turn on the focused page. */
async function press(page, ...keys) {
  for (const k of keys) await page.keyboard.press(k);
}

test('the lobby passes the audit, with an open seek', async () => {
  const ada = await openPlayer(ctx.browser, ctx.server, 'Ada');
  const bo = await openPlayer(ctx.browser, ctx.server, 'Bo');
  try {
    await ada.page.getByRole('heading', { name: 'Custom game' }).waitFor();
    await audit(ada.page, 'lobby');
    await seekFromForm(ada.page, '10+0', 'White');
    await bo.page.getByRole('button', { name: "Join Ada's 10+0 game" }).waitFor();
    await audit(bo.page, 'lobby with a seek');
    await audit(ada.page, 'lobby with its own seek');
    const cy = await openPlayer(ctx.browser, ctx.server, 'Cy', '/', PHONE);
    try {
      await cy.page.getByRole('button', { name: "Join Ada's 10+0 game" }).waitFor();
      await audit(cy.page, 'lobby on a phone');
    } finally {
      await cy.context.close();
    }
  } finally {
    await ada.context.close();
    await bo.context.close();
  }
});

test("fool's mate by keyboard alone, said in words; the game pages pass the audit", async () => {
  const { alice, bob, gameId } = await pair(ctx, 'Alice', 'Bob', '5+0');
  const watcher = await openPlayer(ctx.browser, ctx.server, 'Watcher', `/game/${gameId}`);
  try {
    await watcher.page.getByText('spectating').first().waitFor();
    for (const p of [alice.page, bob.page]) {
      await board(p).focus();
      assert.ok(await boardFocused(p));
    }
    for (const p of [alice.page, bob.page, watcher.page]) await recordWords(p);
    // The cursor starts in front of each player's king; up is toward the opponent.
    assert.match(await cursorLabel(alice.page), /^e2, white pawn/);
    assert.match(await cursorLabel(bob.page), /^e7, black pawn/);

    // 1. f3: right to f2, pick it up, up to f3, put it down.
    await press(alice.page, 'ArrowRight');
    assert.match(await cursorLabel(alice.page), /^f2, white pawn/);
    await press(alice.page, 'Enter');
    await eventually(async () => /selected/.test(await cursorLabel(alice.page)), { what: 'f2 selected' });
    await press(alice.page, 'ArrowUp');
    assert.match(await cursorLabel(alice.page), /^f3, empty, legal move/);
    await press(alice.page, 'Enter');
    for (const p of [alice.page, bob.page, watcher.page]) await waitForWords(p, 'pawn from f2 to f3');
    await audit(alice.page, 'game, player');
    await audit(watcher.page, 'game, spectator');
    const lou = await openPlayer(ctx.browser, ctx.server, 'Lou');
    try {
      await lou.page.getByRole('link', { name: /^Watch Alice/ }).waitFor();
      await audit(lou.page, 'lobby with a live game');
    } finally {
      await lou.context.close();
    }

    // While Bob thinks, Alice queues 2. g4 by keyboard: down to f2, right to g2, up twice.
    await press(alice.page, 'ArrowDown', 'ArrowRight', 'Enter', 'ArrowUp', 'ArrowUp');
    assert.match(await cursorLabel(alice.page), /^g4, empty, legal move/);
    await press(alice.page, 'Enter');
    await waitForWords(alice.page, 'premove from g2 to g4');

    // 1... e5: from Black's side up is toward rank 1, one square per press. Alice's premove
    // follows at once.
    await press(bob.page, 'Enter', 'ArrowUp', 'ArrowUp');
    assert.match(await cursorLabel(bob.page), /^e5, empty, legal move/);
    await press(bob.page, 'Enter');
    for (const p of [alice.page, bob.page, watcher.page]) {
      await eventually(async () => /pawn from g2 to g4$/.test((await said(p).innerText()).trim()), {
        what: `the premove said on ${p.url()}`,
      });
    }
    assert.ok(await boardFocused(alice.page), "the board keeps the focus when the opponent's move arrives");

    // 2... Qh4#: from e5 down to e8 (toward rank 8 from Black's side), right to d8, then to h4.
    await press(bob.page, 'ArrowDown', 'ArrowDown', 'ArrowDown', 'ArrowRight');
    assert.match(await cursorLabel(bob.page), /^d8, black queen/);
    await press(bob.page, 'Enter', 'ArrowUp', 'ArrowUp', 'ArrowUp', 'ArrowUp');
    await press(bob.page, 'ArrowLeft', 'ArrowLeft', 'ArrowLeft', 'ArrowLeft');
    assert.match(await cursorLabel(bob.page), /^h4, empty, legal move/);
    await press(bob.page, 'Enter');
    for (const p of [alice.page, bob.page, watcher.page]) await waitForWords(p, 'queen from d8 to h4, checkmate');
    await alice.page.getByText('Black wins').first().waitFor();
    const moves = ['pawn from f2 to f3', 'pawn from e7 to e5', 'pawn from g2 to g4', 'queen from d8 to h4, checkmate'];
    await assertSaid(watcher.page, moves, 'the spectator');
    await assertSaid(bob.page, ['pawn from f2 to f3', 'e7, black pawn, selected', ...moves.slice(1)], 'Bob');
    await assertSaid(
      alice.page,
      ['f2, white pawn, selected', 'pawn from f2 to f3', 'g2, white pawn, selected', 'premove from g2 to g4', ...moves.slice(1)],
      'Alice',
    );
    for (const p of [alice.page, bob.page]) assert.ok(await boardFocused(p), 'the board keeps the focus at the end');

    // One Tab leaves the board, one Shift+Tab comes back.
    await press(alice.page, 'Tab');
    const left = await alice.page.evaluate(() => {
      const a = document.activeElement;
      return a && a !== document.body && !a.closest('.board-wrap') ? a.tagName : null;
    });
    assert.ok(left, 'one Tab takes the focus off the board, onto the next control');
    await press(alice.page, 'Shift+Tab');
    assert.ok(await boardFocused(alice.page), 'one Shift+Tab brings it back');
    await screenshot(alice.page, 'a11y-keyboard-mate');
    await bob.page.getByRole('button', { name: 'Good game' }).click();
    await alice.page.getByRole('list', { name: 'Messages' }).getByText('Good game').waitFor();
    await audit(alice.page, 'finished game, with a chat line');
  } finally {
    await alice.context.close();
    await bob.context.close();
    await watcher.context.close();
  }
});

test('the other pages pass the audit: settings (light and dark), account, profile, TV', async () => {
  const { alice, bob } = await pair(ctx, 'Ida', 'Jon', '5+0');
  try {
    const page = alice.page;
    await page.locator('.player-bar').filter({ hasText: 'Ida' }).getByRole('link').first().click();
    await page.getByRole('heading', { name: 'Games' }).waitFor();
    await audit(page, 'profile');
    await page.getByRole('link', { name: 'Settings' }).click();
    await page.getByRole('radio', { name: 'Light' }).check();
    await audit(page, 'settings, light theme');
    await page.getByRole('radio', { name: 'Dark' }).check();
    await audit(page, 'settings, dark theme');
    await page.getByRole('link', { name: 'Account' }).click();
    await page.getByRole('heading', { name: 'Ida' }).waitFor();
    await audit(page, 'account');
    await page.getByRole('link', { name: 'TV' }).click();
    await page.getByRole('application', { name: /board/i }).waitFor();
    await audit(page, 'TV');
  } finally {
    await alice.context.close();
    await bob.context.close();
  }
});

test('the analysis board passes the audit; a promotion chosen by keyboard', async () => {
  const fen = '7k/P7/8/8/8/8/8/K7 w - - 0 1';
  const ann = await openPlayer(ctx.browser, ctx.server, 'Ann', `/analysis?fen=${encodeURIComponent(fen)}`);
  const page = ann.page;
  try {
    await page.getByRole('heading', { name: 'Analysis board' }).waitFor();
    await audit(page, 'analysis board');
    await board(page).focus();
    // From e2: Home to a2, five up to a7, pick up, up to a8, put down: the chooser opens.
    await press(page, 'Home', 'ArrowUp', 'ArrowUp', 'ArrowUp', 'ArrowUp', 'ArrowUp');
    assert.match(await cursorLabel(page), /^a7, white pawn/);
    await press(page, 'Enter', 'ArrowUp', 'Enter');
    const chooser = page.getByRole('dialog', { name: 'Choose a piece to promote to' });
    await chooser.waitFor();
    await audit(page, 'promotion chooser');
    // The focus is in the chooser (on the queen); the arrow goes to the knight.
    await eventually(
      () => page.evaluate(() => document.activeElement?.getAttribute('aria-label') === 'Promote to queen'),
      { what: 'the focus on the queen' },
    );
    await press(page, 'ArrowRight', 'Enter');
    await waitForWords(page, 'pawn from a7 to a8, promotes to knight');
    assert.ok(await boardFocused(page), 'the focus is back on the board');
    assert.match(await cursorLabel(page), /^a8, white knight/);
    // Black to move: End goes to h8, the black king; Escape cancels its selection.
    await press(page, 'End');
    assert.match(await cursorLabel(page), /^h8, black king/);
    await press(page, 'Enter');
    await waitForWords(page, 'h8, black king, selected');
    await press(page, 'Escape');
    await waitForWords(page, 'selection cancelled');
    assert.doesNotMatch(await cursorLabel(page), /selected/);
    await press(page, 'PageDown');
    assert.match(await cursorLabel(page), /^h1, empty/);

    // The mouse drags as before, and the drag is said in words, not as dnd-kit's "draggable".
    await dragMove(page, 'h8', 'g8');
    await waitForWords(page, 'king from h8 to g8');
    assert.equal(await page.getByRole('status').filter({ hasText: /draggable/i }).count(), 0, 'no words about draggables');
    assert.equal(await board(page).getByRole('button').count(), 0, 'the pieces are not buttons');
    assert.equal(await board(page).locator('[tabindex]').count(), 0, 'nor tab stops');
  } finally {
    await ann.context.close();
  }
});

test('the board editor passes the audit; a piece put by keyboard', async () => {
  const ann = await openPlayer(ctx.browser, ctx.server, 'Ann', '/editor');
  const page = ann.page;
  try {
    await page.getByRole('heading', { name: 'Board editor' }).waitFor();
    await audit(page, 'board editor');
    await page.getByRole('group', { name: 'Piece to place' }).getByRole('button', { name: 'white knight', exact: true }).click();
    // The board is one tab stop (e2); the arrows move between its squares, Enter puts the piece.
    await page.getByRole('button', { name: 'e2, white pawn' }).focus();
    await press(page, 'ArrowUp', 'ArrowUp', 'Enter');
    await page.getByRole('button', { name: 'e4, white knight' }).waitFor();
    assert.equal(await page.getByRole('group', { name: /^Board editor/ }).locator('[tabindex="0"]').count(), 1, 'one tab stop');
  } finally {
    await ann.context.close();
  }
});

test('a game with its computer analysis passes the audit, at a blunder, in both themes', async () => {
  const ann = await openPlayer(ctx.browser, ctx.server, 'Kim');
  const page = ann.page;
  try {
    const id = await importPgn(page, '[White "Ann"]\n[Black "Ben"]\n[Result "1-0"]\n\n1. e4 e5 2. Qh5 Nc6 3. Bc4 Nf6 4. Qxf7# 1-0\n');
    await page.goto(`/game/${id}`);
    await page.getByRole('button', { name: 'Request a computer analysis' }).click();
    await page.getByRole('group', { name: /^Evaluation graph: / }).waitFor({ timeout: 30000 });
    await page.getByRole('list', { name: 'Moves' }).getByRole('button', { name: '3... Nf6, blunder' }).click();
    await page.getByText('Blunder. g6 was best.').waitFor();
    await audit(page, 'analysed game at a blunder');
    await page.getByRole('link', { name: 'Settings' }).click();
    await page.getByRole('radio', { name: 'Dark' }).check();
    await page.goBack();
    await page.getByRole('list', { name: 'Moves' }).getByRole('button', { name: '3... Nf6, blunder' }).click();
    await page.getByText('Blunder. g6 was best.').waitFor();
    await audit(page, 'analysed game at a blunder, dark theme');
  } finally {
    await ann.context.close();
  }
});
