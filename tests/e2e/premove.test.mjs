/*
 * A premove that recaptures onto a square the player's own piece stands on when it is queued:
 * 1. e4 e5 2. d4, and while Black thinks White queues Qd1-d4 over its own pawn; Black takes
 * exd4 and the queen recaptures at once, by itself (docs/client.md: premove destinations by
 * geometry). Premoves queued one after another, played one per turn, and a queue dropped when
 * its next premove is no longer legal.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { clickMove, pair, square, suite, waitForMoves } from './harness.mjs';

const ctx = suite();

test('a premove recaptures onto the square of its own piece', async () => {
  const { alice, bob } = await pair(ctx, 'Alice', 'Bob', '5+0');
  await clickMove(alice.page, 'e2', 'e4');
  await waitForMoves(bob.page, ['e4']);
  await clickMove(bob.page, 'e7', 'e5');
  await waitForMoves(alice.page, ['e4', 'e5']);
  await clickMove(alice.page, 'd2', 'd4');
  await waitForMoves(bob.page, ['e4', 'e5', 'd4']);
  // Black to move: White's queen onto its own pawn's square, as a premove.
  await clickMove(alice.page, 'd1', 'd4');
  await clickMove(bob.page, 'e5', 'd4');
  await waitForMoves(alice.page, ['e4', 'e5', 'd4', 'exd4', 'Qxd4']);
  await waitForMoves(bob.page, ['e4', 'e5', 'd4', 'exd4', 'Qxd4']);
});

test('premoves queue up and are played one per turn', async () => {
  const { alice, bob } = await pair(ctx, 'Carol', 'Dan', '5+0');
  await clickMove(alice.page, 'e2', 'e4');
  await waitForMoves(bob.page, ['e4']);
  // While Black thinks, White queues Nf3 and Bc4: the board shows both made.
  await clickMove(alice.page, 'g1', 'f3');
  await clickMove(alice.page, 'f1', 'c4');
  await square(alice.page, 'c4').and(alice.page.getByLabel(/^c4, white bishop, premove/)).waitFor();
  await square(alice.page, 'f3').and(alice.page.getByLabel(/^f3, white knight, premove/)).waitFor();
  await clickMove(bob.page, 'e7', 'e5');
  await waitForMoves(bob.page, ['e4', 'e5', 'Nf3']);
  await clickMove(bob.page, 'b8', 'c6');
  await waitForMoves(bob.page, ['e4', 'e5', 'Nf3', 'Nc6', 'Bc4']);
  await waitForMoves(alice.page, ['e4', 'e5', 'Nf3', 'Nc6', 'Bc4']);
  // A queue of three: Qe2, Ng5, Nxf7. Qe2 and Ng5 are played on Black's next two moves, then
  // ...hxg5 takes the knight: Nxf7 is not legal any more and the queue is gone.
  await clickMove(alice.page, 'd1', 'e2');
  await clickMove(alice.page, 'f3', 'g5');
  await clickMove(alice.page, 'g5', 'f7');
  await clickMove(bob.page, 'd7', 'd6');
  await waitForMoves(bob.page, ['e4', 'e5', 'Nf3', 'Nc6', 'Bc4', 'd6', 'Qe2']);
  await clickMove(bob.page, 'h7', 'h6');
  await waitForMoves(bob.page, ['e4', 'e5', 'Nf3', 'Nc6', 'Bc4', 'd6', 'Qe2', 'h6', 'Ng5']);
  await clickMove(bob.page, 'h6', 'g5');
  await waitForMoves(alice.page, ['e4', 'e5', 'Nf3', 'Nc6', 'Bc4', 'd6', 'Qe2', 'h6', 'Ng5', 'hxg5']);
  assert.equal(await alice.page.getByLabel(/, premove$/).count(), 0, 'the queue is gone');
});
