/*
 * TV in a real browser: /tv shows the top game being played as a spectator sees it, and when
 * that game ends, the next one.
 */
import { test } from 'node:test';
import { clickMove, openPlayer, pair, suite, waitForMoves } from './harness.mjs';

const ctx = suite();

test('TV shows the game being played, then follows the next when it ends', async () => {
  const first = await pair(ctx, 'Rita', 'Sam', '5+0');
  const viewer = await openPlayer(ctx.browser, ctx.server, 'Viewer', '/tv');
  const bars = viewer.page.locator('.player-bar');
  await bars.filter({ hasText: 'Rita' }).waitFor();
  await bars.filter({ hasText: 'Sam' }).waitFor();
  await viewer.page.getByText('spectating').first().waitFor();
  // A move reaches TV as it reaches any spectator.
  await clickMove(first.alice.page, 'e2', 'e4');
  await waitForMoves(viewer.page, ['e4']);
  // A second game starts; the first ends: TV moves on to the second.
  const second = await pair(ctx, 'Tess', 'Ugo', '3+0');
  await first.bob.page.getByRole('button', { name: 'Abort' }).click();
  await first.bob.page.getByRole('button', { name: 'Yes, abort' }).click();
  await viewer.page.getByText('Game aborted').first().waitFor();
  await bars.filter({ hasText: 'Tess' }).waitFor({ timeout: 15000 });
  await bars.filter({ hasText: 'Ugo' }).waitFor();
  for (const p of [first.alice, first.bob, second.alice, second.bob, viewer]) await p.context.close();
});
