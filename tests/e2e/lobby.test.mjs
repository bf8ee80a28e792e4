/*
 * The lobby in a real browser: a challenge by link accepted by a friend, seeks (presets and a
 * custom time control) appearing in and leaving other people's lists, live games and counts, a
 * game against the computer at level 1 played to the end with board clicks (watched by a
 * spectator who sees its evaluation), a spectator following the full-strength computer's line,
 * and screenshots of the lobby at desktop and phone sizes.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import {
  clickMove,
  CLIENT_DIR,
  DESKTOP,
  eventually,
  moveList,
  openPlayer,
  PHONE,
  screenshot,
  seekFromForm,
  suite,
  waitForGame,
  waitForMoves,
} from './harness.mjs';

const { Chess } = createRequire(join(CLIENT_DIR, 'package.json'))('chess.js');

const ctx = suite();

test('a challenge by link, accepted by a friend', async () => {
  const carol = await openPlayer(ctx.browser, ctx.server, 'Carol');
  await carol.page.getByLabel('Minutes per side').fill('7');
  await carol.page.getByLabel('Increment (seconds)').fill('2');
  const custom = carol.page.locator('section').filter({ has: carol.page.getByRole('heading', { name: 'Custom game' }) });
  await custom.getByRole('radio', { name: 'Black' }).check();
  await carol.page.getByRole('button', { name: 'Challenge a friend' }).click();
  await carol.page.waitForURL(/\/challenge\/[A-Za-z0-9]+$/);
  const link = await carol.page.getByLabel('Send this link to your friend').inputValue();
  assert.match(link, /^http:\/\/127\.0\.0\.1:\d+\/challenge\/[A-Za-z0-9]{12}$/);
  const path = new URL(link).pathname;

  const dave = await openPlayer(ctx.browser, ctx.server, 'Dave', path);
  await dave.page.getByRole('heading', { name: 'Carol challenges you' }).waitFor();
  await dave.page.getByText('7+2').waitFor();
  await dave.page.getByText('you play White').waitFor();
  await dave.page.getByRole('button', { name: 'Accept challenge' }).click();
  const [a, b] = await Promise.all([waitForGame(carol.page), waitForGame(dave.page)]);
  assert.equal(a, b);
  await dave.page.getByText('you play white').waitFor();
  await carol.page.getByText('you play black').waitFor();
  // A used link says so.
  const late = await openPlayer(ctx.browser, ctx.server, 'Late', path);
  await late.page.getByRole('alert').filter({ hasText: 'No open challenge with this id.' }).waitFor();
  await late.context.close();
  // Keep this game going for the live list below.
  globalThis.liveGame = { carol, dave, id: a };
});

test('seeks come and go in other people’s lobbies; live games and counts', async () => {
  const alice = await openPlayer(ctx.browser, ctx.server, 'Alice');
  const bob = await openPlayer(ctx.browser, ctx.server, 'Bob');
  await seekFromForm(alice.page, '10+5');
  const join = bob.page.getByRole('button', { name: "Join Alice's 10+5 game" });
  await join.waitFor();
  await alice.page.getByRole('button', { name: 'Cancel your 10+5 seek' }).click();
  await join.waitFor({ state: 'detached' });
  // A custom time control, seeked from the custom game form.
  await alice.page.getByLabel('Minutes per side').fill('4');
  await alice.page.getByLabel('Increment (seconds)').fill('1');
  await alice.page.getByRole('button', { name: 'Create seek' }).click();
  await bob.page.getByRole('button', { name: "Join Alice's 4+1 game" }).waitFor();
  await alice.page.getByRole('button', { name: 'Cancel your 4+1 seek' }).click();
  await bob.page.getByRole('button', { name: "Join Alice's 4+1 game" }).waitFor({ state: 'detached' });
  await seekFromForm(alice.page, '3+2');
  await bob.page.getByRole('button', { name: "Join Alice's 3+2 game" }).waitFor();
  // The challenge game from the previous test is live.
  await bob.page.getByRole('link', { name: /^Watch Carol vs Dave .*, Carol has white|^Watch Dave vs Carol .*, Dave has white/ }).waitFor();
  await eventually(async () => /\d+ players online · 1 game in play/.test(await bob.page.locator('.stats').innerText()), {
    what: 'the online counts',
  });
  await bob.page.getByRole('button', { name: "Join Alice's 3+2 game" }).scrollIntoViewIfNeeded();
  await screenshot(bob.page, 'lobby-desktop');
  const phone = await openPlayer(ctx.browser, ctx.server, 'Phil', '/', PHONE);
  await phone.page.getByRole('button', { name: "Join Alice's 3+2 game" }).waitFor();
  await screenshot(phone.page, 'lobby-phone');
  // Watching the live game from the list.
  await phone.page.getByRole('link', { name: /^Watch / }).first().click();
  await phone.page.getByText('spectating').first().waitFor();
  for (const p of [alice, bob, phone]) await p.context.close();
});

test('quick pairing: two players press the same preset and land in one game', async () => {
  const ivy = await openPlayer(ctx.browser, ctx.server, 'Ivy');
  const jon = await openPlayer(ctx.browser, ctx.server, 'Jon');
  try {
    // Ivy waits (and can change her mind); then both press 3+2.
    const ivyPreset = ivy.page.getByRole('button', { name: 'Play a 3+2 blitz game' });
    await ivyPreset.click();
    await ivy.page.getByRole('status').filter({ hasText: 'Looking for a casual 3+2 opponent' }).waitFor();
    assert.equal(await ivyPreset.getAttribute('aria-pressed'), 'true');
    await ivy.page.getByRole('button', { name: 'Cancel' }).click();
    await eventually(async () => (await ivyPreset.getAttribute('aria-pressed')) === 'false', { what: 'the wait cancelled' });
    await ivyPreset.click();
    await jon.page.getByRole('button', { name: 'Play a 3+2 blitz game' }).click();
    const [a, b] = await Promise.all([waitForGame(ivy.page), waitForGame(jon.page)]);
    assert.equal(a, b);
    await ivy.page.getByText('3+2').first().waitFor();
  } finally {
    await ivy.context.close();
    await jon.context.close();
  }
});

const VALUE = { p: 1, n: 3, b: 3, r: 5, q: 9, k: 0 };

/**
 * The human side's move: a mate in one, else the best of a crude count (what it takes, minus
 * the piece when the square it goes to is attacked, a little for checks, promotions and pawn
 * pushes), ties broken by a seeded choice. Enough to finish a game against level 1 quickly.
 */
function pickMove(chess, seed) {
  const them = chess.turn() === 'w' ? 'b' : 'w';
  let best = null;
  let bestScore = -Infinity;
  chess.moves({ verbose: true }).forEach((m, i) => {
    let score = m.captured ? VALUE[m.captured] : 0;
    if (m.promotion) score += 8;
    if (m.piece === 'p') score += 0.1;
    chess.move(m);
    if (chess.isCheckmate()) score += 1000;
    else if (chess.inCheck()) score += 0.5;
    if (chess.isAttacked(m.to, them)) score -= VALUE[m.promotion ?? m.piece];
    chess.undo();
    score += (((seed * 31 + i * 7919) % 97) / 97) * 0.05;
    if (score > bestScore) {
      bestScore = score;
      best = m;
    }
  });
  return best;
}

/** The game's state as the server has it (the JSON endpoint). */
async function serverGame(gameId) {
  return (await fetch(`${ctx.server.url}/api/games/${gameId}`)).json();
}

/**
 * Plays the human side on the board with clicks (from square, then to square, then the
 * promotion piece when asked) until the game ends. Returns the number of plies played.
 */
async function playComputerToTheEnd(page, gameId, color) {
  const yourTurn = page.getByRole('status').filter({ hasText: /^Your turn/ });
  for (let i = 0; i < 500; i++) {
    await eventually(
      async () => (await yourTurn.count()) > 0 || (await serverGame(gameId)).status !== 'playing',
      { timeout: 15000, what: 'the computer to move' },
    );
    const state = await serverGame(gameId);
    if (state.status !== 'playing') return state.ply;
    assert.equal(state.turn, color);
    await waitForMoves(page, state.san);
    const m = pickMove(new Chess(state.fen), i);
    await clickMove(page, m.from, m.to);
    if (m.promotion) await page.getByRole('button', { name: 'Promote to queen' }).click();
    try {
      await eventually(async () => (await moveList(page)).length > state.ply, {
        timeout: 15000,
        what: `the move ${m.san} to be played`,
      });
    } catch (err) {
      // Rare in CI and not reproduced: say what the server and the page showed at the time,
      // without letting a failure to look hide the timeout itself.
      const look = (promise) => promise.catch((e) => `unavailable (${e.message})`);
      const now = await look(serverGame(gameId));
      const shown = await look(page.getByRole('status').allInnerTexts());
      const server =
        typeof now === 'string'
          ? now
          : JSON.stringify({ status: now.status, turn: now.turn, ply: now.ply, result: now.result, reason: now.reason });
      throw new Error(
        `${err.message} (clicked ${m.from}-${m.to} at ply ${state.ply}; server now: ${server}; ` +
          `page status: ${JSON.stringify(shown)})`,
      );
    }
  }
  throw new Error('the game against the computer did not end within 500 moves');
}

test('a game against the computer at level 1 runs until the end', { timeout: 180000 }, async () => {
  // Without animations (a player setting): a click the moment the computer's piece lands
  // would otherwise hit the piece still gliding over the board, not the square beneath it.
  const noAnimation = (page) =>
    page.context().addInitScript(() => localStorage.setItem('chess.settings', JSON.stringify({ animation: 'none' })));
  const erin = await openPlayer(ctx.browser, ctx.server, 'Erin', '/', DESKTOP, noAnimation);
  await erin.page.getByRole('slider', { name: 'Level' }).fill('1');
  await erin.page.getByLabel('Time control').selectOption('5+0');
  await erin.page.getByRole('radio', { name: 'White' }).last().check();
  await erin.page.getByRole('button', { name: 'Play the computer' }).click();
  const gameId = await waitForGame(erin.page);
  await erin.page.getByText('you play white').waitFor();
  // The computer's seat says what it is; "thinking…" shows while it thinks (watched from the
  // start: level 1 answers within milliseconds).
  await erin.page.getByText('Computer level 1').waitFor();
  await erin.page.getByText('computer', { exact: true }).waitFor();
  await erin.page.evaluate(() => {
    const w = /** @type {any} */ (window);
    w.sawThinking = false;
    const look = () => {
      for (const el of document.querySelectorAll('[role="status"]')) {
        if (el.textContent === 'thinking…') w.sawThinking = true;
      }
    };
    new MutationObserver(look).observe(document.body, { subtree: true, childList: true, characterData: true });
  });

  // A spectator sees the computer's evaluation once it has thought; the player does not. (Its
  // line's moves are checked at full strength below: level 1 searches one ply and picks among
  // several moves, so between its turns the line it reported rarely has moves the game follows.)
  const fay = await openPlayer(ctx.browser, ctx.server, 'Fay', `/game/${gameId}`, DESKTOP);
  await fay.page.getByText('spectating').first().waitFor();
  const [plies] = await Promise.all([
    playComputerToTheEnd(erin.page, gameId, 'white'),
    (async () => {
      await fay.page.getByRole('meter', { name: 'Evaluation' }).waitFor({ timeout: 30000 });
      const line = await fay.page.getByLabel("The computer's evaluation").innerText();
      assert.match(line, /([+-]\d+\.\d|0\.0|#-?\d+)[^]*depth \d+/);
    })(),
  ]);

  assert.ok(plies > 2, `the game lasted ${plies} plies`);
  const over = /wins|Draw|Game over/;
  await erin.page.getByRole('status').filter({ hasText: over }).waitFor();
  await fay.page.getByRole('status').filter({ hasText: over }).waitFor();
  assert.equal(await erin.page.getByRole('meter', { name: 'Evaluation' }).count(), 0, 'no evaluation for the player');
  assert.equal(await erin.page.evaluate(() => /** @type {any} */ (window).sawThinking), true, 'thinking… was shown');
  assert.equal(await erin.page.getByText('thinking…').count(), 0, 'no thinking after the end');
  const end = await serverGame(gameId);
  console.log(`computer game: ${end.ply} plies, ${end.result} (${end.reason})`);
  await fay.context.close();
  await erin.context.close();
});

test('a spectator follows the computer\'s line at full strength', { timeout: 60000 }, async () => {
  const gina = await openPlayer(ctx.browser, ctx.server, 'Gina', '/', DESKTOP);
  await gina.page.getByRole('slider', { name: 'Level' }).fill('8');
  await gina.page.getByLabel('Time control').selectOption('5+0');
  await gina.page.getByRole('radio', { name: 'White' }).last().check();
  await gina.page.getByRole('button', { name: 'Play the computer' }).click();
  const gameId = await waitForGame(gina.page);
  const hal = await openPlayer(ctx.browser, ctx.server, 'Hal', `/game/${gameId}`, DESKTOP);
  await hal.page.getByText('spectating').first().waitFor();
  await clickMove(gina.page, 'e2', 'e4');
  // While it thinks the line is of the current position; once it has played, the rest of the
  // line it played from (its move was the line's first) stays until Gina answers.
  const line = await eventually(
    async () => {
      const text = await hal.page.getByLabel("The computer's evaluation").innerText();
      return /\d+(\.|…) \S+/.test(text) && text;
    },
    { what: 'an engine line with moves', timeout: 30000, interval: 20 },
  );
  assert.match(line, /([+-]\d+\.\d|0\.0|#-?\d+)[^]*depth \d+/);
  await eventually(async () => (await serverGame(gameId)).ply === 2, { what: 'the computer to answer 1. e4' });
  await waitForMoves(gina.page, (await serverGame(gameId)).san);
  await screenshot(hal.page, 'game-computer-spectator');
  await gina.page.getByRole('button', { name: 'Resign' }).click();
  await gina.page.getByRole('button', { name: 'Yes, resign' }).click();
  await hal.page.getByText('Black wins').waitFor();
  await hal.context.close();
  await gina.context.close();
});

test('cleanup of the live game', async () => {
  const live = globalThis.liveGame;
  if (live) {
    await live.carol.context.close();
    await live.dave.context.close();
  }
});
