/*
 * A premove that recaptures onto a square the player's own piece stands on when it is queued:
 * 1. e4 e5 2. d4, and while Black thinks White queues Qd1-d4 over its own pawn; Black takes
 * exd4 and the queen recaptures at once, by itself (docs/client.md: premove destinations by
 * geometry).
 */
import { test } from 'node:test';
import { clickMove, pair, suite, waitForMoves } from './harness.mjs';

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
