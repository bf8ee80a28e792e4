/*
 * A board program on lichess's Board API (docs/http-api.md) against a person in a real browser.
 * Bea registers in the browser and makes a personal API token with board:play on her account
 * page; a small board program (below: Node's fetch reading the NDJSON streams, as lichess's board
 * programs do) seeks a game with that token; Ann joins the seek from her lobby and plays in the
 * browser; the program answers her moves from its game stream and resigns; Ann's page shows the
 * result.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { clickMove, eventually, moveList, openPlayer, registerAccount, suite, waitForGame } from './harness.mjs';

const ctx = suite();

/* An NDJSON stream read line by line: next() gives the next object (keep-alive lines skipped). */
async function openStream(url, init) {
  const res = await fetch(url, init);
  assert.equal(res.status, 200, `${url}: ${res.status}`);
  const reader = res.body.getReader();
  const decoder = new TextDecoder();
  let buffer = '';
  return {
    res,
    async next(timeoutMs = 15000) {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const nl = buffer.indexOf('\n');
        if (nl >= 0) {
          const line = buffer.slice(0, nl).trim();
          buffer = buffer.slice(nl + 1);
          if (line) return JSON.parse(line);
          continue;
        }
        if (Date.now() > deadline) throw new Error(`no line from ${url} in ${timeoutMs} ms`);
        const { value, done } = await reader.read();
        if (done) return null;
        buffer += decoder.decode(value, { stream: true });
      }
    },
    async nextType(type) {
      for (;;) {
        const line = await this.next();
        if (!line) throw new Error(`${url} ended before a ${type} line`);
        if (line.type === type) return line;
      }
    },
    cancel() {
      return reader.cancel().catch(() => {});
    },
  };
}

test('a board program seeks, a person joins in the browser, they play', async () => {
  const bea = await openPlayer(ctx.browser, ctx.server, 'Bea');
  const ann = await openPlayer(ctx.browser, ctx.server, 'Ann');
  const base = ctx.server.url;
  let events = null;
  let seek = null;
  let game = null;
  try {
    // Bea's token, made on her account page (board:play), shown once.
    await registerAccount(bea.page, 'bea_board', 'correct horse battery');
    const api = bea.page.locator('section').filter({ has: bea.page.getByRole('heading', { name: 'API access tokens' }) });
    await api.getByLabel('Token description').fill('my board');
    await api.getByRole('checkbox', { name: /\(board:play\)$/ }).check();
    await api.getByRole('button', { name: 'Create token' }).click();
    const token = await api
      .getByRole('region', { name: 'New API token my board' })
      .getByRole('textbox', { name: 'API token my board' })
      .inputValue();
    await bea.context.close(); // the program plays from here on, not the browser
    const auth = { headers: { Authorization: `Bearer ${token}` } };
    const account = await (await fetch(`${base}/api/account`, auth)).json();
    assert.equal(account.username, 'bea_board');

    // The program: its event stream, and a seek held while its request is open.
    events = await openStream(`${base}/api/stream/event`, auth);
    seek = await openStream(`${base}/api/board/seek`, {
      method: 'POST',
      headers: { ...auth.headers, 'Content-Type': 'application/x-www-form-urlencoded' },
      body: 'time=5&increment=3&color=black',
    });
    await ann.page.getByRole('button', { name: "Join bea_board's 5+3 game" }).click();
    await waitForGame(ann.page);
    const start = await events.nextType('gameStart');
    assert.equal(start.game.color, 'black');
    assert.equal(await seek.next(), null, 'the seek request ends when its game starts');
    game = await openStream(`${base}/api/board/game/stream/${start.game.gameId}`, auth);
    const full = await game.nextType('gameFull');
    assert.equal(full.white.name, 'Ann');
    assert.equal(full.black.name, 'bea_board');

    // Ann plays in the browser; the program answers from its stream.
    const answers = ['e7e5', 'b8c6'];
    for (const [from, to] of [['e2', 'e4'], ['g1', 'f3']]) {
      await clickMove(ann.page, from, to);
      const state = await game.nextType('gameState');
      const played = state.moves.split(' ');
      assert.equal(played[played.length - 1], from + to);
      const reply = answers.shift();
      const res = await fetch(`${base}/api/board/game/${start.game.gameId}/move/${reply}`, { ...auth, method: 'POST' });
      assert.deepEqual(await res.json(), { ok: true });
      await game.nextType('gameState');
    }
    const moves = await eventually(async () => {
      const list = await moveList(ann.page);
      return list.length === 4 && list;
    }, { what: 'four moves on Ann’s board' });
    assert.deepEqual(moves, ['e4', 'e5', 'Nf3', 'Nc6']);
    // The program resigns: its stream says so, and Ann's page shows the result.
    const res = await fetch(`${base}/api/board/game/${start.game.gameId}/resign`, { ...auth, method: 'POST' });
    assert.equal(res.status, 200);
    const end = await game.nextType('gameState');
    assert.equal(end.status, 'resign');
    assert.equal(end.winner, 'white');
    await ann.page.getByText('White wins').waitFor();
    const finish = await events.nextType('gameFinish');
    assert.equal(finish.game.gameId, start.game.gameId);
  } finally {
    for (const s of [events, seek, game]) if (s) await s.cancel();
    await ann.context.close();
  }
});
