/*
 * Games in a real browser against the real server: two people pair through the lobby and play
 * to checkmate by clicking the board while a spectator watches the moves arrive; an illegal
 * drag snaps back and a legal one is played; moves typed in SAN and a promotion through the
 * chooser; an abort; the clock ticking, the board flipped and the game's link on a spectator's
 * page; the sounds of moves, captures, checks and the end, and the mute switch. Screenshots of
 * the game page at desktop and phone sizes.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  clickMove,
  dragMove,
  eventually,
  moveList,
  openPlayer,
  pair as pairIn,
  PHONE,
  screenshot,
  seekFromForm,
  square,
  suite,
  waitForGame,
  waitForMoves,
} from './harness.mjs';

const ctx = suite();
const pair = (a, b, tc, setupBob, setupAlice) => pairIn(ctx, a, b, tc, setupBob, setupAlice);

test('two players play to checkmate by clicking; a spectator sees every move', async () => {
  const { alice, bob, gameId } = await pair('Alice', 'Bob');
  const watcher = await openPlayer(ctx.browser, ctx.server, 'Watcher', `/game/${gameId}`);
  await watcher.page.getByText('spectating').first().waitFor();
  // Read-only for the spectator: selecting a piece shows no destinations.
  await square(watcher.page, 'f2').click();
  assert.equal(await watcher.page.locator('[data-dest]').count(), 0);

  // Fool's mate: 1. f3 e5 2. g4 Qh4#
  const plies = [
    [alice.page, 'f2', 'f3', 'f3'],
    [bob.page, 'e7', 'e5', 'e5'],
    [alice.page, 'g2', 'g4', 'g4'],
    [bob.page, 'd8', 'h4', 'Qh4#'],
  ];
  const played = [];
  for (const [page, from, to, san] of plies) {
    // Legal destinations show as the piece is selected.
    await square(page, from).click();
    await square(page, to).and(page.locator('[data-dest]')).waitFor();
    await square(page, to).click();
    played.push(san);
    for (const p of [alice.page, bob.page, watcher.page]) await waitForMoves(p, played);
  }
  for (const p of [alice.page, bob.page, watcher.page]) {
    await p.getByText('Black wins').waitFor();
    await p.getByText('Checkmate', { exact: true }).waitFor();
  }
  // The last move and the mated king are marked on the board.
  await square(watcher.page, 'h4').and(watcher.page.locator('[data-last]')).waitFor();
  await watcher.page.getByLabel('e1, white king, in check').waitFor();
  await screenshot(alice.page, 'game-desktop');
  // PGN download link points at the server's PGN.
  const href = await alice.page.getByRole('link', { name: 'Download PGN' }).getAttribute('href');
  const pgn = await (await fetch(`${ctx.server.url}${href}`)).text();
  assert.match(pgn, /1\. f3 .*e5 .*2\. g4 .*Qh4#/s);
  assert.match(pgn, /\[Result "0-1"\]/);
  for (const s of [alice, bob, watcher]) await s.context.close();
});

test('an illegal drag snaps back; a legal drag is played; premoves', async () => {
  const { alice, bob } = await pair('Carol', 'Dave', '3+2');
  await dragMove(alice.page, 'e2', 'e5'); // a pawn cannot go three squares
  await square(alice.page, 'e2').and(alice.page.getByLabel(/^e2, white pawn/)).waitFor();
  assert.equal(await square(alice.page, 'e5').getAttribute('aria-label'), 'e5, empty');
  assert.deepEqual(await moveList(alice.page), []);
  await dragMove(alice.page, 'e2', 'e4');
  await waitForMoves(bob.page, ['e4']);
  await square(bob.page, 'e4').and(bob.page.getByLabel(/^e4, white pawn/)).waitFor();
  // While Bob thinks, Alice queues d4 (a premove); it is played as soon as Bob has moved.
  await clickMove(alice.page, 'd2', 'd4');
  await alice.page.getByLabel('d4, white pawn, premove').waitFor(); // shown made
  await dragMove(bob.page, 'c7', 'c5');
  await waitForMoves(bob.page, ['e4', 'c5', 'd4']);
  await waitForMoves(alice.page, ['e4', 'c5', 'd4']);
  // The board can lag the move list: select the pawn only once it stands on d4.
  await square(alice.page, 'd4').and(alice.page.getByLabel(/^d4, white pawn/)).waitFor();
  // A premove that is no longer legal when the turn comes is dropped.
  await clickMove(alice.page, 'd4', 'd5');
  await alice.page.getByLabel('d5, white pawn, premove').waitFor();
  await clickMove(bob.page, 'd7', 'd5');
  await waitForMoves(alice.page, ['e4', 'c5', 'd4', 'd5']);
  await alice.page.getByLabel('d5, black pawn, last move').or(alice.page.getByLabel(/^d5, black pawn$/)).waitFor();
  await eventually(async () => (await alice.page.getByLabel(/, premove$/).count()) === 0, {
    what: 'the premove d4-d5 dropped',
  });
  assert.deepEqual(await moveList(alice.page), ['e4', 'c5', 'd4', 'd5']);
  await alice.context.close();
  await bob.context.close();
});

test('moves typed in SAN, and a promotion through the chooser', async () => {
  const { alice, bob } = await pair('Erin', 'Frank', '10+5');
  const typed = ['e4', 'd5', 'exd5', 'c6', 'dxc6', 'Nf6', 'cxb7', 'Nbd7'];
  for (let i = 0; i < typed.length; i++) {
    const page = i % 2 === 0 ? alice.page : bob.page;
    const input = page.getByLabel('Type a move');
    await eventually(() => input.isEnabled(), { what: 'the move input to be enabled' });
    await input.fill(typed[i]);
    await input.press('Enter');
    await waitForMoves(i % 2 === 0 ? bob.page : alice.page, typed.slice(0, i + 1));
  }
  // A typo is refused by the client with a readable message and nothing is sent.
  const input = alice.page.getByLabel('Type a move');
  await input.fill('Ke9');
  await input.press('Enter');
  await alice.page.getByRole('alert').filter({ hasText: 'is not a legal move here' }).waitFor();
  await input.fill('');
  // b7xa8 promotes: the chooser opens; pick a knight.
  await clickMove(alice.page, 'b7', 'a8');
  await alice.page.getByRole('dialog', { name: 'Choose a piece to promote to' }).waitFor();
  // The chooser stands over the promotion square: the queen on a8, the knight just below it.
  const box = async (locator) => locator.boundingBox();
  const [a8, a7, queen, knight] = await Promise.all([
    box(square(alice.page, 'a8')),
    box(square(alice.page, 'a7')),
    box(alice.page.getByRole('button', { name: 'Promote to queen' })),
    box(alice.page.getByRole('button', { name: 'Promote to knight' })),
  ]);
  const centre = (b) => ({ x: b.x + b.width / 2, y: b.y + b.height / 2 });
  const inside = (p, b) => p.x >= b.x && p.x <= b.x + b.width && p.y >= b.y && p.y <= b.y + b.height;
  assert.ok(inside(centre(queen), a8), `queen ${JSON.stringify(queen)} over a8 ${JSON.stringify(a8)}`);
  assert.ok(inside(centre(knight), a7), `knight ${JSON.stringify(knight)} over a7 ${JSON.stringify(a7)}`);
  await screenshot(alice.page, 'game-promotion-chooser');
  await alice.page.getByRole('button', { name: 'Promote to knight' }).click();
  await waitForMoves(bob.page, [...typed, 'bxa8=N']);
  await square(bob.page, 'a8').and(bob.page.getByLabel(/^a8, white knight/)).waitFor();
  // History navigation with the arrow keys: back one ply shows Nbd7's position.
  await alice.page.locator('body').click({ position: { x: 5, y: 5 } });
  await alice.page.keyboard.press('ArrowLeft');
  await square(alice.page, 'b7').and(alice.page.getByLabel(/^b7, white pawn/)).waitFor();
  await alice.page.keyboard.press('End');
  await square(alice.page, 'a8').and(alice.page.getByLabel(/^a8, white knight/)).waitFor();
  await alice.context.close();
  await bob.context.close();
});

test('chat, offers, takeback, resignation and rematch, with confirmations', async () => {
  const { alice, bob, gameId } = await pair('Ivy', 'Jack', '15+10');
  const watcher = await openPlayer(ctx.browser, ctx.server, 'Kim', `/game/${gameId}`);
  // The players and Kim see that one person watches.
  for (const p of [alice.page, bob.page, watcher.page]) await p.getByText('1 spectator', { exact: true }).waitFor();
  // Chat: the players' room reaches the opponent, not the spectators.
  await alice.page.getByRole('textbox', { name: 'Write a message' }).fill('good luck');
  await alice.page.getByRole('button', { name: 'Send' }).click();
  await bob.page.getByRole('list', { name: 'Messages' }).getByText('good luck').waitFor();
  await watcher.page.getByRole('textbox', { name: 'Write a message' }).fill('hello spectators');
  await watcher.page.getByRole('button', { name: 'Send' }).click();
  await watcher.page.getByRole('list', { name: 'Messages' }).getByText('hello spectators').waitFor();
  // Alice's next line reaches Bob after anything the server sent him for Kim's line.
  await alice.page.getByRole('textbox', { name: 'Write a message' }).fill('have fun');
  await alice.page.getByRole('button', { name: 'Send' }).click();
  await bob.page.getByRole('list', { name: 'Messages' }).getByText('have fun').waitFor();
  assert.equal(await bob.page.getByText('hello spectators').count(), 0);

  await clickMove(alice.page, 'd2', 'd4');
  await waitForMoves(bob.page, ['d4']);
  await clickMove(bob.page, 'd7', 'd5');
  await waitForMoves(alice.page, ['d4', 'd5']);
  // White's clock runs since Black's first move: it ticks on the spectator's page between
  // the server's messages.
  const whiteClock = watcher.page.getByRole('timer', { name: 'white clock' });
  const shown = await whiteClock.innerText();
  await eventually(async () => (await whiteClock.innerText()) !== shown, { what: `White's clock to tick from ${shown}` });
  // Bob gives Alice 15 seconds: her clock goes past its 15 minutes on every page.
  await bob.page.getByRole('button', { name: 'Give 15 seconds' }).click();
  const seconds = (text) => text.split(':').reduce((total, part) => total * 60 + Number(part), 0);
  for (const p of [alice.page, watcher.page]) {
    const clock = p.getByRole('timer', { name: 'white clock' });
    await eventually(async () => seconds(await clock.innerText()) > 900, { what: 'White to have 15 s more' });
  }
  // The spectator flips the board (Black at the bottom: a8 below a1, the coordinates with it)
  // and reads the game's link.
  const coordinates = async (name) =>
    (await watcher.page.getByRole('group', { name }).innerText()).replace(/\s+/g, '');
  assert.equal(await coordinates('Board, white at the bottom, spectating'), '8765432a1bcdefgh');
  await watcher.page.getByRole('button', { name: 'Flip the board' }).click();
  assert.equal(await coordinates('Board, black at the bottom, spectating'), '1234567h8gfedcba');
  const [a1, a8] = [await square(watcher.page, 'a1').boundingBox(), await square(watcher.page, 'a8').boundingBox()];
  assert.ok(a1 && a8 && a8.y > a1.y, `a1 ${JSON.stringify(a1)}, a8 ${JSON.stringify(a8)}`);
  assert.equal(await watcher.page.getByLabel('Link to this game').inputValue(), `${ctx.server.url}/game/${gameId}`);
  // A draw offer asks for confirmation, then Bob declines it.
  await alice.page.getByRole('button', { name: 'Offer draw' }).click();
  await alice.page.getByRole('button', { name: 'Yes, offer a draw' }).click();
  await alice.page.getByRole('button', { name: 'Draw offered…' }).waitFor();
  await bob.page.getByText('Your opponent offers a draw.').waitFor();
  await bob.page.getByRole('button', { name: 'Decline draw' }).click();
  await alice.page.getByRole('button', { name: 'Offer draw' }).waitFor();
  // Alice regrets 2. Bg5 and asks for a takeback; Bob accepts.
  await clickMove(alice.page, 'c1', 'g5');
  await waitForMoves(bob.page, ['d4', 'd5', 'Bg5']);
  await alice.page.getByRole('button', { name: 'Propose takeback' }).click();
  await bob.page.getByRole('button', { name: 'Accept takeback' }).click();
  for (const p of [alice.page, bob.page, watcher.page]) await waitForMoves(p, ['d4', 'd5']);
  await square(alice.page, 'c1').and(alice.page.getByLabel(/^c1, white bishop/)).waitFor();
  // Resigning asks first; cancelling keeps the game going.
  await bob.page.getByRole('button', { name: 'Resign' }).click();
  await bob.page.getByRole('button', { name: 'Cancel' }).click();
  await bob.page.getByRole('button', { name: 'Resign' }).click();
  await bob.page.getByRole('button', { name: 'Yes, resign' }).click();
  for (const p of [alice.page, bob.page, watcher.page]) {
    await p.getByText('White wins').waitFor();
    await p.getByText('Black resigned').waitFor();
  }
  // Rematch: both land on the new game with colours swapped.
  await bob.page.getByRole('button', { name: 'Rematch' }).click();
  await alice.page.getByText('Your opponent wants a rematch.').waitFor();
  await alice.page.getByRole('button', { name: 'Accept rematch' }).click();
  await alice.page.waitForURL((url) => !url.pathname.endsWith(gameId));
  await bob.page.waitForURL((url) => !url.pathname.endsWith(gameId));
  await alice.page.getByText('you play black').waitFor();
  await bob.page.getByText('you play white').waitFor();
  // The spectator of the old game is offered the way to the new one.
  await watcher.page.getByRole('link', { name: 'Watch the rematch' }).click();
  await watcher.page.waitForURL(alice.page.url());
  await watcher.page.getByText('spectating').first().waitFor();
  for (const s of [alice, bob, watcher]) await s.context.close();
});

test('the board and the actions stay put when a banner or an offer appears', async () => {
  const { alice, bob } = await pair('Pia', 'Quinn', '5+0');
  await clickMove(alice.page, 'e2', 'e4');
  await clickMove(bob.page, 'e7', 'e5');
  await waitForMoves(alice.page, ['e4', 'e5']);
  const board = alice.page.getByRole('group', { name: /^Board/ });
  const resign = alice.page.getByRole('button', { name: 'Resign' });
  const draw = alice.page.getByRole('button', { name: 'Offer draw' });
  const boxes = async () => [await board.boundingBox(), await resign.boundingBox(), await draw.boundingBox()];
  const before = await boxes();
  // An offer from the opponent: shown, and nothing moves.
  await bob.page.getByRole('button', { name: 'Offer draw' }).click();
  await bob.page.getByRole('button', { name: 'Yes, offer a draw' }).click();
  await alice.page.getByRole('button', { name: /^Accept/ }).first().waitFor();
  assert.deepEqual(await boxes(), before, 'an offer moved the board or the buttons');
  // The connection banner floats: nothing moves either.
  await alice.context.setOffline(true);
  await alice.page.getByRole('alert').filter({ hasText: /network is down|Connection lost|Reconnecting/ }).waitFor();
  assert.deepEqual(await boxes(), before, 'the banner moved the board or the buttons');
  await alice.context.setOffline(false);
  await alice.page.getByRole('alert').filter({ hasText: /Connection lost|Reconnecting/ }).waitFor({ state: 'detached' });
  await alice.context.close();
  await bob.context.close();
});

test('a game aborted before both sides moved', async () => {
  const { alice, bob } = await pair('Nora', 'Otto', '3+0');
  await clickMove(alice.page, 'e2', 'e4');
  await waitForMoves(bob.page, ['e4']);
  // Black has not moved: he may still abort, after confirming.
  await bob.page.getByRole('button', { name: 'Abort' }).click();
  await bob.page.getByRole('button', { name: 'Yes, abort' }).click();
  for (const p of [alice.page, bob.page]) await p.getByRole('status').filter({ hasText: 'Game aborted' }).waitFor();
  await alice.context.close();
  await bob.context.close();
});

/** Notes every sound a page starts (Web Audio nodes) in window.sounds: "knock" for a noise
 * burst, "tone <Hz>" for a tone. Runs before the page's own scripts. */
async function recordSounds(page) {
  await page.addInitScript(() => {
    const w = /** @type {any} */ (window);
    w.sounds = [];
    const startKnock = AudioBufferSourceNode.prototype.start;
    AudioBufferSourceNode.prototype.start = function (...args) {
      w.sounds.push('knock');
      return startKnock.apply(this, args);
    };
    const startTone = OscillatorNode.prototype.start;
    OscillatorNode.prototype.start = function (...args) {
      w.sounds.push(`tone ${Math.round(this.frequency.value)}`);
      return startTone.apply(this, args);
    };
  });
}

const SOUND = {
  move: ['knock'],
  capture: ['knock', 'knock'],
  check: ['tone 880', 'tone 660'],
  end: ['tone 523', 'tone 659', 'tone 784'],
};

/** The number of sounds a page has started so far. */
const soundCount = (page) => page.evaluate(() => /** @type {any} */ (window).sounds.length);

/** Returns after the page's next frame (React runs effects, and so sounds, after the paint). */
const nextFrame = (page) => page.evaluate(() => new Promise((r) => requestAnimationFrame(() => setTimeout(r, 0))));

/** Waits until the sounds a page started after the first `from` are exactly `expected`. */
async function waitForSounds(page, from, expected) {
  await eventually(
    async () => {
      assert.deepEqual(await page.evaluate((n) => /** @type {any} */ (window).sounds.slice(n), from), expected);
      return true;
    },
    { what: `the sounds ${expected.join(', ')}` },
  );
}

test('sounds for a move, a capture, a check and the end; the mute switch', async () => {
  // Both pages had a user gesture (seek, join), which starts their audio.
  const { alice, bob } = await pair('Lena', 'Max', '5+3', recordSounds, recordSounds);
  const plies = [
    [alice.page, 'e2', 'e4', 'move'],
    [bob.page, 'd7', 'd5', 'move'],
    [alice.page, 'e4', 'd5', 'capture'],
    [bob.page, 'd8', 'd5', 'capture'],
    [alice.page, 'b1', 'c3', 'move'],
    [bob.page, 'd5', 'e5', 'check'],
  ];
  for (const [page, from, to, kind] of plies) {
    const before = [await soundCount(alice.page), await soundCount(bob.page)];
    await clickMove(page, from, to);
    await waitForSounds(alice.page, before[0], SOUND[kind]);
    await waitForSounds(bob.page, before[1], SOUND[kind]);
  }
  // Max mutes (the click is a gesture too): Lena's move sounds on her page only.
  await bob.page.getByRole('button', { name: 'Sound on (mute)' }).click();
  const muted = await soundCount(bob.page);
  const before = await soundCount(alice.page);
  await clickMove(alice.page, 'f1', 'e2');
  await waitForSounds(alice.page, before, SOUND.move);
  const moves = ['e4', 'd5', 'exd5', 'Qxd5', 'Nc3', 'Qe5+', 'Be2'];
  await waitForMoves(bob.page, moves);
  await nextFrame(bob.page);
  assert.equal(await soundCount(bob.page), muted, "Be2's sound on the muted page");
  // The switch is remembered after a reload; his resignation (a gesture, which starts the
  // page's audio again) ends the game with the end's sound on her page alone.
  await bob.page.reload();
  await bob.page.getByRole('button', { name: 'Sound off (turn on)', pressed: true }).waitFor();
  await waitForMoves(bob.page, moves);
  await bob.page.getByRole('button', { name: 'Resign' }).click();
  await bob.page.getByRole('button', { name: 'Yes, resign' }).click();
  await waitForSounds(alice.page, before, [...SOUND.move, ...SOUND.end]);
  await bob.page.getByText('White wins').waitFor();
  await nextFrame(bob.page);
  assert.equal(await soundCount(bob.page), 0, 'sounds on the muted page after the reload');
  await alice.context.close();
  await bob.context.close();
});

test('game page on a phone', async () => {
  const alice = await openPlayer(ctx.browser, ctx.server, 'Gina', '/', PHONE);
  const bob = await openPlayer(ctx.browser, ctx.server, 'Hank', '/', PHONE);
  await seekFromForm(alice.page, '3+0');
  await bob.page.getByRole('button', { name: "Join Gina's 3+0 game" }).click();
  await waitForGame(alice.page);
  await waitForGame(bob.page);
  // Whoever is White plays e4 by tapping (the colours are drawn: read them once shown).
  const aliceColor = await alice.page.getByText(/you play (white|black)/).innerText();
  const whitePage = aliceColor.includes('you play white') ? alice.page : bob.page;
  const blackPage = whitePage === alice.page ? bob.page : alice.page;
  await square(whitePage, 'e2').tap();
  await square(whitePage, 'e4').tap();
  await waitForMoves(blackPage, ['e4']);
  await square(blackPage, 'e7').tap();
  await square(blackPage, 'e5').tap();
  await waitForMoves(whitePage, ['e4', 'e5']);
  // The whole board fits the phone's width.
  const board = await whitePage.getByRole('group', { name: /^Board/ }).boundingBox();
  assert.ok(board && board.width <= PHONE.width && board.x >= 0, `board box ${JSON.stringify(board)}`);
  // Draw and Resign are in reach without scrolling: a bar at the bottom of the screen.
  for (const name of ['Offer draw', 'Resign']) {
    const box = await whitePage.getByRole('button', { name }).boundingBox();
    assert.ok(box && box.y >= 0 && box.y + box.height <= PHONE.height, `${name} at ${JSON.stringify(box)}`);
  }
  await screenshot(whitePage, 'game-phone');
  await alice.context.close();
  await bob.context.close();
});
