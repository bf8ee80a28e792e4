/*
 * A dropped connection in a real browser: the page notices, says so, reconnects with backoff,
 * resynchronises the full state (a move made while it was away shows up) and the game goes on.
 * The test sits between the page and the server (Playwright's WebSocket routing) to cut the
 * connection and to refuse reconnections for a while.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { clickMove, moveList, pair, square, suite, waitForMoves } from './harness.mjs';

const ctx = suite();

test('a dropped socket reconnects, resynchronises and the game goes on', async () => {
  let link = null;
  let blocked = false;
  let connections = 0;
  const route = async (page) => {
    await page.routeWebSocket(/\/ws$/, (ws) => {
      if (blocked) {
        ws.close({ code: 4002, reason: 'refused by the test' });
        return;
      }
      connections++;
      const toServer = ws.connectToServer();
      link = { ws, toServer };
    });
  };
  const { alice, bob } = await pair(ctx, 'Alice', 'Bob', '5+3', route);
  await clickMove(alice.page, 'e2', 'e4');
  await waitForMoves(bob.page, ['e4']);
  await clickMove(bob.page, 'c7', 'c5');
  await waitForMoves(alice.page, ['e4', 'c5']);

  // Cut Bob's connection and keep him out for a while.
  blocked = true;
  await link.toServer.close();
  await link.ws.close({ code: 4001, reason: 'dropped by the test' });
  await bob.page.getByRole('alert').filter({ hasText: /Connection lost|Reconnecting/ }).waitFor();
  await alice.page.getByText('away').waitFor(); // Bob's presence, as the server tells Alice
  await clickMove(alice.page, 'g1', 'f3'); // played while Bob is away
  await waitForMoves(alice.page, ['e4', 'c5', 'Nf3']);
  assert.deepEqual(await moveList(bob.page), ['e4', 'c5']);

  // Let him back: the next attempt connects, the welcome brings the game's full state.
  blocked = false;
  await waitForMoves(bob.page, ['e4', 'c5', 'Nf3']);
  await bob.page.getByRole('status').filter({ hasText: 'Online' }).waitFor();
  await alice.page.getByText('away').waitFor({ state: 'detached' });
  assert.ok(connections >= 2, `connections: ${connections}`);
  await square(bob.page, 'f3').and(bob.page.getByLabel(/^f3, white knight/)).waitFor();
  await clickMove(bob.page, 'd7', 'd6');
  await waitForMoves(alice.page, ['e4', 'c5', 'Nf3', 'd6']);
  await alice.context.close();
  await bob.context.close();
});
