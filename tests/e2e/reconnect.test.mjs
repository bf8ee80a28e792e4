/*
 * A dropped connection in a real browser: the page notices, says so, reconnects with backoff,
 * resynchronises the full state (a move made while it was away shows up) and the game goes on.
 * A player who stays away may have the game claimed by the opponent. The test sits between the
 * page and the server (Playwright's WebSocket routing) to cut the connection and to refuse
 * reconnections for a while.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { clickMove, moveList, pair, square, suite, waitForMoves } from './harness.mjs';

const ctx = suite(['--abandon-seconds', '2']);

/** Routes a page's WebSocket through the test, which can cut it and refuse reconnections. */
function cutter() {
  const c = { link: null, blocked: false, connections: 0 };
  c.route = async (page) => {
    await page.routeWebSocket(/\/ws$/, (ws) => {
      if (c.blocked) {
        ws.close({ code: 4002, reason: 'refused by the test' });
        return;
      }
      c.connections++;
      c.link = { ws, toServer: ws.connectToServer() };
    });
  };
  c.cut = async () => {
    c.blocked = true;
    await c.link.toServer.close();
    await c.link.ws.close({ code: 4001, reason: 'dropped by the test' });
  };
  return c;
}

test('a dropped socket reconnects, resynchronises and the game goes on', async () => {
  const net = cutter();
  const route = net.route;
  const { alice, bob } = await pair(ctx, 'Alice', 'Bob', '5+3', route);
  await clickMove(alice.page, 'e2', 'e4');
  await waitForMoves(bob.page, ['e4']);
  await clickMove(bob.page, 'c7', 'c5');
  await waitForMoves(alice.page, ['e4', 'c5']);

  // Cut Bob's connection and keep him out for a while.
  await net.cut();
  await bob.page.getByRole('alert').filter({ hasText: /Connection lost|Reconnecting/ }).waitFor();
  await alice.page.getByText('away').waitFor(); // Bob's presence, as the server tells Alice
  await clickMove(alice.page, 'g1', 'f3'); // played while Bob is away
  await waitForMoves(alice.page, ['e4', 'c5', 'Nf3']);
  assert.deepEqual(await moveList(bob.page), ['e4', 'c5']);

  // Let him back: the next attempt connects, the welcome brings the game's full state.
  net.blocked = false;
  await waitForMoves(bob.page, ['e4', 'c5', 'Nf3']);
  await bob.page.getByRole('status').filter({ hasText: 'Online' }).waitFor();
  await alice.page.getByText('away').waitFor({ state: 'detached' });
  assert.ok(net.connections >= 2, `connections: ${net.connections}`);
  await square(bob.page, 'f3').and(bob.page.getByLabel(/^f3, white knight/)).waitFor();
  await clickMove(bob.page, 'd7', 'd6');
  await waitForMoves(alice.page, ['e4', 'c5', 'Nf3', 'd6']);
  // A reload on the lobby offers the game in progress (the token in the browser brings it back).
  await bob.page.goto('/');
  await bob.page.getByRole('link', { name: 'Resume against Alice' }).click();
  await waitForMoves(bob.page, ['e4', 'c5', 'Nf3', 'd6']);
  await alice.context.close();
  await bob.context.close();
});

test('with the network down a move is refused, and the page is back within a second of it', async () => {
  const { alice, bob } = await pair(ctx, 'Nina', 'Otto', '5+3');
  await clickMove(alice.page, 'e2', 'e4');
  await waitForMoves(bob.page, ['e4']);
  await bob.context.setOffline(true);
  const status = bob.page.locator('.game-turn');
  await status.filter({ hasText: 'Not connected: moves paused' }).waitFor();
  // Black's turn, but no move (nor premove) is taken while the network is down.
  await clickMove(bob.page, 'e7', 'e5');
  assert.deepEqual(await moveList(bob.page), ['e4']);
  assert.equal(await bob.page.getByLabel(/, premove$/).count(), 0, 'no premove queued');
  await bob.page.getByText('the network is down').first().waitFor();
  const back = Date.now();
  await bob.context.setOffline(false);
  await status.filter({ hasText: 'Your turn' }).waitFor({ timeout: 5000 });
  const took = Date.now() - back;
  assert.ok(took < 1000, `back ${took} ms after the network returned`);
  await clickMove(bob.page, 'e7', 'e5');
  await waitForMoves(alice.page, ['e4', 'e5']);
  await alice.context.close();
  await bob.context.close();
});

test('a player who stays away loses the game when the opponent claims it', async () => {
  const net = cutter();
  const { alice, bob } = await pair(ctx, 'Cleo', 'Dan', '10+0', net.route);
  await clickMove(alice.page, 'd2', 'd4');
  await waitForMoves(bob.page, ['d4']);
  await clickMove(bob.page, 'd7', 'd5');
  await waitForMoves(alice.page, ['d4', 'd5']);
  await net.cut();
  await alice.page.getByText(/Your opponent left\. You can claim the game in \d s/).waitFor();
  await alice.page.getByRole('button', { name: 'Claim victory' }).click();
  await alice.page.getByText('White wins').waitFor();
  await alice.page.getByText('Black left the game').waitFor();
  await alice.context.close();
  await bob.context.close();
});
