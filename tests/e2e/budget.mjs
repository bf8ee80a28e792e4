#!/usr/bin/env node
/*
 * The web client's budgets, measured and printed (never asserted):
 *
 *  1. Initial JavaScript: the scripts index.html loads (module entry and modulepreloads) in
 *     client/dist, raw and gzipped (budget: 250 kB gzipped).
 *  2. Move latency: in two browser contexts playing each other on localhost, the time from the
 *     click that completes a move on one board to the next frame painted after the move shows
 *     on the other board (budget: 100 ms). "Shows" means the opponent's board has re-rendered
 *     with the move (piece on its square in the board's state, last-move highlight); the piece
 *     then glides there in a 200 ms animation, reported separately.
 *
 * Usage: CHESS_SERVER_BIN=build/release/server/chess_server node tests/e2e/budget.mjs [plies]
 * (or: cmake --build <dir> --target client_budget). Needs a built client (client/dist).
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { CLIENT_DIR, CLIENT_DIST, launchBrowser, pair, startServer, square } from './harness.mjs';

const { Chess } = createRequire(join(CLIENT_DIR, 'package.json'))('chess.js');

const ANIMATION_MS = 200;

// Fischer-Spassky 1992, game 1: a long game without repetitions.
const GAME =
  'e4 e5 Nf3 Nc6 Bb5 a6 Ba4 Nf6 O-O Be7 Re1 b5 Bb3 d6 c3 O-O h3 Nb8 d4 Nbd7 c4 c6 cxb5 axb5 ' +
  'Nc3 Bb7 Bg5 b4 Nb1 h6 Bh4 c5 dxe5 Nxe4 Bxe7 Qxe7 exd6 Qf6 Nbd2 Nxd6 Nc4 Nxc4 Bxc4 Nb6 ' +
  'Ne5 Rae8 Bxf7+ Rxf7 Nxf7 Rxe1+ Qxe1 Kxf7 Qe3 Qg5 Qxg5 hxg5 b3 Ke6 a3 Kd6 axb4 cxb4 Ra5 Nd5';

function kB(n) {
  return `${(n / 1000).toFixed(1)} kB`;
}

function initialJs() {
  const html = readFileSync(join(CLIENT_DIST, 'index.html'), 'utf8');
  const urls = new Set();
  for (const m of html.matchAll(/<script[^>]*\bsrc="([^"]+)"/g)) urls.add(m[1]);
  for (const m of html.matchAll(/<link[^>]*rel="modulepreload"[^>]*href="([^"]+)"/g)) urls.add(m[1]);
  let raw = 0;
  let gz = 0;
  const files = [];
  for (const url of urls) {
    const bytes = readFileSync(join(CLIENT_DIST, url.replace(/^\//, '')));
    const g = gzipSync(bytes, { level: 9 }).length;
    raw += bytes.length;
    gz += g;
    files.push(`${url} ${kB(bytes.length)} (${kB(g)} gzipped)`);
  }
  return { raw, gz, files };
}

function stats(values) {
  const v = [...values].sort((a, b) => a - b);
  const at = (q) => v[Math.min(v.length - 1, Math.floor(q * v.length))];
  return { n: v.length, min: v[0], median: at(0.5), p95: at(0.95), max: v[v.length - 1] };
}

function fmt(s) {
  return `min ${s.min.toFixed(1)} ms, median ${s.median.toFixed(1)} ms, p95 ${s.p95.toFixed(1)} ms, max ${s.max.toFixed(1)} ms (${s.n} moves)`;
}

/** Records when the page's WebSocket last sent and received a message (for the breakdown). */
function stampSocket() {
  const now = () => performance.timeOrigin + performance.now();
  const send = WebSocket.prototype.send;
  WebSocket.prototype.send = function (data) {
    window.__sentAt = now();
    return send.call(this, data);
  };
  const desc = Object.getOwnPropertyDescriptor(WebSocket.prototype, 'onmessage');
  Object.defineProperty(WebSocket.prototype, 'onmessage', {
    configurable: true,
    get() {
      return desc.get.call(this);
    },
    set(fn) {
      desc.set.call(this, fn && ((ev) => ((window.__receivedAt = now()), fn.call(this, ev))));
    },
  });
}

/** Watches the page's board for `to` becoming the destination of the last move. */
async function armWatcher(page, to) {
  await page.evaluate((sq) => {
    window.__shown = null;
    const done = () => {
      const el = document.querySelector(`[aria-label^="${sq}, "][data-last]`);
      if (!el) return false;
      const seen = performance.timeOrigin + performance.now();
      requestAnimationFrame(() => {
        window.__shown = { seen, painted: performance.timeOrigin + performance.now() };
      });
      return true;
    };
    const obs = new MutationObserver(() => {
      if (done()) obs.disconnect();
    });
    obs.observe(document.body, { subtree: true, childList: true, attributes: true });
  }, to);
}

async function armClickClock(page) {
  await page.evaluate(() => {
    window.__clicked = null;
    document.addEventListener(
      'click',
      () => {
        window.__clicked = performance.timeOrigin + performance.now();
      },
      { capture: true, once: true },
    );
  });
}

async function moveLatency(plies) {
  const server = await startServer();
  const browser = await launchBrowser();
  const ctx = { server, browser };
  const samples = [];
  const painted = [];
  const parts = { send: [], wire: [], render: [] };
  try {
    const stamp = (page) => page.addInitScript(stampSocket);
    const { alice, bob } = await pair(ctx, 'Alice', 'Bob', '30+0', stamp, stamp);
    const chess = new Chess();
    const sans = GAME.split(' ').slice(0, plies);
    for (let i = 0; i < sans.length; i++) {
      const [mover, other] = i % 2 === 0 ? [alice.page, bob.page] : [bob.page, alice.page];
      const m = chess.move(sans[i]);
      await square(mover, m.from).click();
      await square(mover, m.to).and(mover.locator('[data-dest]')).waitFor();
      await armWatcher(other, m.to);
      await armClickClock(mover);
      await square(mover, m.to).click();
      const shown = await other.waitForFunction(() => window.__shown, null, { polling: 'raf' });
      const { seen, painted: paintedAt } = await shown.jsonValue();
      const clicked = await mover.evaluate(() => window.__clicked);
      const sentAt = await mover.evaluate(() => window.__sentAt);
      const receivedAt = await other.evaluate(() => window.__receivedAt);
      samples.push(seen - clicked);
      painted.push(paintedAt - clicked);
      parts.send.push(sentAt - clicked);
      parts.wire.push(receivedAt - sentAt);
      parts.render.push(seen - receivedAt);
      // Let the animation finish and the mover's confirmation arrive before the next move.
      await other.waitForTimeout(ANIMATION_MS + 50);
    }
  } finally {
    await browser.close();
    await server.stop();
  }
  return {
    dom: stats(samples),
    paint: stats(painted),
    send: stats(parts.send),
    wire: stats(parts.wire),
    render: stats(parts.render),
  };
}

const plies = Number(process.argv[2] ?? 40);
const js = initialJs();
console.log('Initial JavaScript (what index.html loads):');
for (const f of js.files) console.log(`  ${f}`);
console.log(`  total ${kB(js.raw)} raw, ${kB(js.gz)} gzipped (budget 250 kB gzipped)`);
const lat = await moveLatency(plies);
console.log('Move latency, click on one board to the move on the other board (localhost):');
console.log(`  on the opponent's board (DOM updated): ${fmt(lat.dom)}`);
console.log(`  next frame painted: ${fmt(lat.paint)} (budget 100 ms)`);
console.log(`  then the piece glides to its square in ${ANIMATION_MS} ms`);
console.log('  where the time goes:');
console.log(`    click to message sent (mover's page): ${fmt(lat.send)}`);
console.log(`    sent to received (network and server): ${fmt(lat.wire)}`);
console.log(`    received to board updated (opponent's page): ${fmt(lat.render)}`);
