/*
 * End-to-end harness: starts the real chess_server binary on a free port with a temporary data
 * directory, serving the built client (client/dist), and drives Debian's chromium headless
 * through playwright-core (installed with the client's dev dependencies).
 *
 * The server binary comes from CHESS_SERVER_BIN (ctest passes $<TARGET_FILE:chess_server>);
 * the browser from CHESS_CHROMIUM (default /usr/bin/chromium). Screenshots go to
 * tests/artifacts/ (git-ignored).
 *
 * Locators are the ones people use: roles and accessible names. Board squares carry labels such
 * as "e4, white knight", so a square is found by its label.
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { after, before } from 'node:test';
import { fileURLToPath } from 'node:url';

export const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
export const CLIENT_DIR = join(ROOT, 'client');
export const CLIENT_DIST = join(CLIENT_DIR, 'dist');
export const ARTIFACTS = join(ROOT, 'tests', 'artifacts');

const require = createRequire(join(CLIENT_DIR, 'package.json'));
/** @type {import('playwright-core')} */
const playwright = require('playwright-core');

export function serverBinary() {
  const bin = process.env.CHESS_SERVER_BIN;
  if (!bin || !existsSync(bin)) {
    throw new Error('set CHESS_SERVER_BIN to the chess_server binary (ctest does this)');
  }
  if (!existsSync(join(CLIENT_DIST, 'index.html'))) {
    throw new Error('client/dist is missing: run npm ci && npm run build in client/');
  }
  return bin;
}

function freePort() {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.on('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address();
      s.close(() => resolve(port));
    });
  });
}

/**
 * Starts chess_server with extra flags; resolves once /healthz answers. The returned object has
 * url (http://127.0.0.1:port), stop() and log().
 */
export async function startServer(args = []) {
  const bin = serverBinary();
  const port = await freePort();
  const tmp = mkdtempSync(join(tmpdir(), 'chess-e2e-'));
  const logChunks = [];
  const proc = spawn(
    bin,
    [
      '--listen', '127.0.0.1',
      '--port', String(port),
      '--data-dir', join(tmp, 'data'),
      '--static-dir', CLIENT_DIST,
      '--log-level', 'info',
      ...args,
    ],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
  proc.stdout.on('data', (d) => logChunks.push(d));
  proc.stderr.on('data', (d) => logChunks.push(d));
  const url = `http://127.0.0.1:${port}`;
  const exited = new Promise((resolve) => proc.on('exit', (code) => resolve(code)));
  const deadline = Date.now() + 10000;
  for (;;) {
    if (proc.exitCode !== null) throw new Error(`server exited: ${Buffer.concat(logChunks)}`);
    try {
      const r = await fetch(`${url}/healthz`);
      if (r.ok) break;
    } catch {
      /* not up yet */
    }
    if (Date.now() > deadline) throw new Error('server did not start');
    await new Promise((r) => setTimeout(r, 50));
  }
  return {
    url,
    port,
    log: () => Buffer.concat(logChunks).toString(),
    async stop() {
      if (proc.exitCode === null) proc.kill('SIGTERM');
      const code = await Promise.race([exited, new Promise((r) => setTimeout(() => r('timeout'), 10000))]);
      if (code === 'timeout') proc.kill('SIGKILL');
      rmSync(tmp, { recursive: true, force: true });
      return code;
    },
  };
}

/** Chromium flags for headless runs on these machines (see DEPENDENCY-NOTES). */
export const CHROMIUM_ARGS = [
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--autoplay-policy=no-user-gesture-required',
];

/**
 * Launches chromium headless. Playwright gives every launch a fresh temporary profile
 * (its own --user-data-dir), and every context is isolated from the others.
 */
export async function launchBrowser() {
  const args = [...CHROMIUM_ARGS];
  if (process.getuid && process.getuid() === 0) args.push('--no-sandbox');
  return playwright.chromium.launch({
    executablePath: process.env.CHESS_CHROMIUM || '/usr/bin/chromium',
    headless: true,
    args,
  });
}

export const DESKTOP = { width: 1280, height: 900 };
export const PHONE = { width: 390, height: 844 };

/**
 * A new isolated browser context (a person) with a guest name, on the given page path, once
 * the page is connected. `setup(page)` runs before the page loads (to route its WebSocket, say).
 * Returns { context, page }.
 */
export async function openPlayer(browser, server, name, path = '/', viewport = DESKTOP, setup = null) {
  const context = await browser.newContext({
    viewport,
    baseURL: server.url,
    deviceScaleFactor: 1,
    isMobile: viewport.width < 500,
    hasTouch: viewport.width < 500,
  });
  context.setDefaultTimeout(10000);
  await context.addInitScript((n) => {
    if (!localStorage.getItem('chess.name')) localStorage.setItem('chess.name', n);
  }, name);
  const page = await context.newPage();
  page.on('pageerror', (err) => console.error(`[${name}] page error:`, err));
  if (setup) await setup(page);
  await page.goto(path);
  await page.getByRole('status').filter({ hasText: 'Online' }).waitFor();
  return { context, page };
}

/** The board square with this name ("e4"), by its accessible label. */
export function square(page, name) {
  return page.getByLabel(new RegExp(`^${name}, `));
}

/** Clicks the from square, then the to square (click-click move). */
export async function clickMove(page, from, to) {
  await square(page, from).click();
  await square(page, to).click();
}

/**
 * Drags a piece with the mouse: down on the source, several moves, up on the target
 * (locator.dragTo() may drop on the source square with this board).
 */
export async function dragMove(page, from, to) {
  const a = await square(page, from).boundingBox();
  const b = await square(page, to).boundingBox();
  if (!a || !b) throw new Error(`square ${from} or ${to} is not visible`);
  await page.mouse.move(a.x + a.width / 2, a.y + a.height / 2);
  await page.mouse.down();
  const steps = 8;
  for (let i = 1; i <= steps; i++) {
    await page.mouse.move(
      a.x + a.width / 2 + ((b.x - a.x) * i) / steps,
      a.y + a.height / 2 + ((b.y - a.y) * i) / steps,
    );
  }
  await page.mouse.up();
}

/** Saves a screenshot under tests/artifacts/ and returns its path. */
export async function screenshot(page, name) {
  mkdirSync(ARTIFACTS, { recursive: true });
  const path = join(ARTIFACTS, `${name}.png`);
  await page.screenshot({ path, fullPage: false });
  return path;
}

/** Waits until the page's path matches the pattern; returns the game id for /game/<id>. */
export async function waitForGame(page) {
  await page.waitForURL(/\/game\/[A-Za-z0-9]+$/);
  return new URL(page.url()).pathname.split('/').pop();
}

/** The expect() of playwright's web-first assertions is in @playwright/test, which this
 * project does not use; this polls a condition instead. */
export async function eventually(fn, { timeout = 10000, interval = 50, what = 'condition' } = {}) {
  const deadline = Date.now() + timeout;
  let last;
  for (;;) {
    try {
      const v = await fn();
      if (v) return v;
    } catch (err) {
      last = err;
    }
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}${last ? `: ${last}` : ''}`);
    await new Promise((r) => setTimeout(r, interval));
  }
}

export function readJson(path) {
  return JSON.parse(readFileSync(path, 'utf8'));
}

/**
 * One server and one browser for a test file: started before its tests, stopped after them. Returns an object whose server and browser
 * fields are set once the tests run.
 */
export function suite(serverArgs = []) {
  const ctx = { server: null, browser: null };
  before(async () => {
    ctx.server = await startServer(serverArgs);
    ctx.browser = await launchBrowser();
  });
  after(async () => {
    await ctx.browser?.close();
    const code = await ctx.server?.stop();
    // Shutdown is the server's integration tests' business; here it is only reported.
    if (code !== 0) console.error(`note: chess_server exit status after SIGTERM: ${code}`);
  });
  return ctx;
}

/**
 * Alice seeks a game as White through quick pairing and Bob joins it from his lobby; both end
 * on the game's page. `setupBob` (`setupAlice`) runs before Bob's (Alice's) page loads.
 * Returns { alice, bob, gameId }.
 */
export async function pair(ctx, aliceName, bobName, timeLabel = '5+0', setupBob = null, setupAlice = null) {
  const alice = await openPlayer(ctx.browser, ctx.server, aliceName, '/', DESKTOP, setupAlice);
  const bob = await openPlayer(ctx.browser, ctx.server, bobName, '/', DESKTOP, setupBob);
  await seekFromForm(alice.page, timeLabel, 'White');
  await bob.page.getByRole('button', { name: `Join ${aliceName}'s ${timeLabel} game` }).click();
  const [gameA, gameB] = await Promise.all([waitForGame(alice.page), waitForGame(bob.page)]);
  assert.equal(gameA, gameB);
  return { alice, bob, gameId: gameA };
}

/**
 * A seek from the lobby's custom game form: timeLabel "M+I", color 'White', 'Black' or null
 * (random); mode 'Rated' or 'Casual' or null (the form's default).
 */
export async function seekFromForm(page, timeLabel, color = null, mode = null) {
  const form = page.locator('section').filter({ has: page.getByRole('heading', { name: 'Custom game' }) });
  const [minutes, increment] = timeLabel.split('+');
  await form.getByLabel('Minutes per side').fill(minutes);
  await form.getByLabel('Increment (seconds)').fill(increment);
  if (color) await form.getByRole('radio', { name: color }).check();
  if (mode) await form.getByRole('radio', { name: mode }).check();
  await form.getByRole('button', { name: 'Create seek' }).click();
}

/** The SAN moves in a page's move list. */
export async function moveList(page) {
  return page.getByRole('list', { name: 'Moves' }).getByRole('button').allInnerTexts();
}

/** Waits until a page's move list is exactly `expected`. */
export async function waitForMoves(page, expected) {
  await eventually(
    async () => JSON.stringify(await moveList(page)) === JSON.stringify(expected),
    { what: `moves ${expected.join(' ')} on ${page.url()}` },
  );
}

/** Alice (White) plays 1. e4, Bob 1... e5 and resigns; returns once Alice's page says so. */
export async function resignAfterOneMove(alice, bob) {
  await clickMove(alice.page, 'e2', 'e4');
  await waitForMoves(bob.page, ['e4']);
  await clickMove(bob.page, 'e7', 'e5');
  await waitForMoves(alice.page, ['e4', 'e5']);
  await bob.page.getByRole('button', { name: 'Resign' }).click();
  await bob.page.getByRole('button', { name: 'Yes, resign' }).click();
  await alice.page.getByText('White wins').waitFor();
}

/** Registers the page's guest as an account (the account page's form), with this password. */
export async function registerAccount(page, username, password) {
  await page.getByRole('link', { name: 'Account' }).click();
  const form = page.locator('form').filter({ has: page.getByRole('button', { name: 'Register' }) });
  await form.getByLabel('Username').fill(username);
  await form.getByLabel('Password').fill(password);
  await form.getByRole('button', { name: 'Register' }).click();
  await page.getByText('You are logged in.').waitFor();
}

/** Imports a PGN through a page's own WebSocket (the client has no import page); the id. */
export async function importPgn(page, pgn) {
  return page.evaluate(
    (text) =>
      new Promise((resolve, reject) => {
        const ws = new WebSocket(`ws://${location.host}/ws`);
        ws.onopen = () => ws.send(JSON.stringify({ type: 'hello', protocol: 1, id: 1 }));
        ws.onmessage = (ev) => {
          const m = JSON.parse(ev.data);
          if (m.id === 1) ws.send(JSON.stringify({ type: 'pgn_import', pgn: text, id: 2 }));
          if (m.id === 2) {
            ws.close();
            if (m.type === 'imported') resolve(m.game);
            else reject(new Error(JSON.stringify(m)));
          }
        };
      }),
    pgn,
  );
}
