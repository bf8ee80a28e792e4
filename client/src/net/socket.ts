/*
 * The connection to the server: one WebSocket that says hello (with the guest's token, so the
 * server recognises the player after a reconnect), matches replies to requests by id, passes
 * every other message to listeners, and reconnects by itself with backoff when the connection
 * drops or goes silent.
 *
 * State machine: connecting (socket opening or hello sent) -> online (welcome received) ->
 * offline (closed; a retry is scheduled) -> connecting ... Listeners learn of each welcome and
 * resynchronise from it (the welcome carries the full state of the player's games in progress;
 * subscriptions and watched games are requested again by the store).
 *
 * Requests made while not online fail at once with OFFLINE rather than waiting: the UI shows
 * the connection state and the server stays the judge once it is back.
 */
import { backoffDelay, DEFAULT_BACKOFF, type BackoffOptions } from './backoff';
import {
  parseServerMessage,
  PROTOCOL_VERSION,
  type ClientMessage,
  type RequestId,
  type ServerMessage,
  type ServerMessageOf,
} from './protocol';

/** The part of the browser's WebSocket this module uses (tests pass a fake). */
export interface WebSocketLike {
  readonly readyState: number;
  onopen: ((ev: Event) => void) | null;
  onclose: ((ev: CloseEvent) => void) | null;
  onerror: ((ev: Event) => void) | null;
  onmessage: ((ev: MessageEvent) => void) | null;
  send(data: string): void;
  close(code?: number, reason?: string): void;
}

export type ConnectionStatus = 'connecting' | 'online' | 'offline';

export interface ConnectionState {
  status: ConnectionStatus;
  /** Failed attempts since the last welcome. */
  attempt: number;
  /** When the next retry starts (Date.now() milliseconds), while offline. */
  retryAt: number | null;
  /** Why the last connection ended, for people. */
  lastError: string | null;
}

/** An error reply from the server (code is the server's stable code), or a local failure. */
export class ServerError extends Error {
  readonly code: string;
  readonly field?: string;
  constructor(code: string, message: string, field?: string) {
    super(message);
    this.name = 'ServerError';
    this.code = code;
    this.field = field;
  }
}

export interface Identity {
  token: string | null;
  name?: string;
}

export interface SocketOptions {
  url: string;
  /** The identity to say hello with; called before every hello. */
  identity: () => Identity;
  /** Called when the server forgot the token (BAD_TOKEN): the client continues as a new guest. */
  forgetToken?: () => void;
  createSocket?: (url: string) => WebSocketLike;
  backoff?: BackoffOptions;
  /** Quiet time after which the client sends a ping. */
  pingIntervalMs?: number;
  /** Time without any message after a ping before the connection counts as dead. */
  pongTimeoutMs?: number;
  /** Time a request waits for its reply. */
  requestTimeoutMs?: number;
  random?: () => number;
  /**
   * Whether the browser has a network (navigator.onLine). A connection that ends while it has
   * none ended because of that, whichever the browser reports first: the close or 'offline'.
   */
  networkUp?: () => boolean;
}

type MessageListener = (msg: ServerMessage, receivedAt: number) => void;
type StateListener = (state: ConnectionState) => void;
type WelcomeListener = (msg: ServerMessageOf<'welcome'>, receivedAt: number) => void;

interface Pending {
  resolve: (msg: ServerMessage) => void;
  reject: (err: ServerError) => void;
  timer: ReturnType<typeof setTimeout>;
}

const OPEN = 1;
/** How old the lag measure may get before a move asks for a new one. */
const LAG_PROBE_MS = 10000;

export class GameSocket {
  private readonly opts: Required<Omit<SocketOptions, 'forgetToken'>> &
    Pick<SocketOptions, 'forgetToken'>;
  private ws: WebSocketLike | null = null;
  private helloId: RequestId | null = null;
  private nextId = 1;
  private pending = new Map<RequestId, Pending>();
  private messageListeners = new Set<MessageListener>();
  private stateListeners = new Set<StateListener>();
  private welcomeListeners = new Set<WelcomeListener>();
  private retryTimer: ReturnType<typeof setTimeout> | null = null;
  /* The lag measure (lagMs): the smoothed round trip of pings, when the last started. */
  private rttMs: number | null = null;
  private probedAt = -Infinity;
  private probing = false;
  private pingTimer: ReturnType<typeof setTimeout> | null = null;
  private deadTimer: ReturnType<typeof setTimeout> | null = null;
  private stopped = true;
  private _state: ConnectionState = {
    status: 'offline',
    attempt: 0,
    retryAt: null,
    lastError: null,
  };

  constructor(options: SocketOptions) {
    this.opts = {
      createSocket: (url) => new WebSocket(url),
      backoff: DEFAULT_BACKOFF,
      pingIntervalMs: 20000,
      pongTimeoutMs: 10000,
      requestTimeoutMs: 10000,
      random: Math.random,
      networkUp: () => typeof navigator === 'undefined' || navigator.onLine !== false,
      ...options,
    };
  }

  get state(): ConnectionState {
    return this._state;
  }

  /** Starts connecting (and keeps reconnecting until stop()). */
  start(): void {
    if (!this.stopped) return;
    this.stopped = false;
    this.open();
  }

  /** Closes the connection for good. */
  stop(): void {
    this.stopped = true;
    this.clearTimers();
    const ws = this.ws;
    this.ws = null;
    if (ws) {
      ws.onopen = ws.onclose = ws.onerror = ws.onmessage = null;
      ws.close(1000, 'bye');
    }
    this.failPending('CONNECTION_LOST', 'the connection was closed');
    this.setState({ status: 'offline', retryAt: null });
  }

  /**
   * Skips the wait before the next attempt (the browser came back online, the tab woke up); an
   * attempt still hanging from before is dropped for a fresh one.
   */
  retryNow(): void {
    if (this.stopped || this._state.status === 'online') return;
    if (this._state.status === 'connecting') {
      const ws = this.ws;
      this.ws = null;
      if (ws) {
        ws.onopen = ws.onclose = ws.onerror = ws.onmessage = null;
        ws.close();
      }
    }
    if (this.retryTimer) clearTimeout(this.retryTimer);
    this.retryTimer = null;
    this.open();
  }

  /** The browser lost the network: the connection is gone now (not after the keep-alive). */
  networkLost(): void {
    if (this.stopped) return;
    if (!this.ws) {
      // The browser closed the connection before it said the network was gone.
      if (this._state.status === 'offline') this.setState({ lastError: 'the network is down' });
      return;
    }
    const ws = this.ws;
    ws.onopen = ws.onclose = ws.onerror = ws.onmessage = null;
    ws.close();
    this.closed('the network is down');
  }

  onMessage(listener: MessageListener): () => void {
    this.messageListeners.add(listener);
    return () => this.messageListeners.delete(listener);
  }

  onState(listener: StateListener): () => void {
    this.stateListeners.add(listener);
    return () => this.stateListeners.delete(listener);
  }

  onWelcome(listener: WelcomeListener): () => void {
    this.welcomeListeners.add(listener);
    return () => this.welcomeListeners.delete(listener);
  }

  /** Sends a message without waiting for its reply. Returns false when not online. */
  send(msg: ClientMessage): boolean {
    if (this._state.status !== 'online' || !this.ws || this.ws.readyState !== OPEN) return false;
    this.ws.send(JSON.stringify(msg));
    return true;
  }

  /**
   * Sends a request with a fresh id. Resolves with the reply that carries the id, or rejects with
   * a ServerError: the server's error, OFFLINE, CONNECTION_LOST or TIMEOUT.
   */
  /**
   * The one-way network lag as measured (half the round trip of a ping, smoothed), in ms, or null
   * before the first measure. Asking starts a new measure in the background when the last is
   * older than LAG_PROBE_MS, so a player who moves keeps it fresh at one ping per interval.
   */
  lagMs(now = Date.now()): number | null {
    if (this._state.status === 'online' && !this.probing && now - this.probedAt >= LAG_PROBE_MS) {
      this.probing = true;
      this.probedAt = now;
      const sent = Date.now();
      this.requestRaw({ type: 'ping' }).then(
        () => {
          this.probing = false;
          const rtt = Math.max(0, Date.now() - sent);
          this.rttMs = this.rttMs === null ? rtt : 0.8 * this.rttMs + 0.2 * rtt;
        },
        () => {
          this.probing = false;
        },
      );
    }
    return this.rttMs === null ? null : Math.round(this.rttMs / 2);
  }

  request(msg: ClientMessage): Promise<ServerMessage> {
    if (this._state.status !== 'online') {
      return Promise.reject(
        new ServerError('OFFLINE', 'Not connected to the server; reconnecting…'),
      );
    }
    return this.requestRaw(msg);
  }

  private requestRaw(msg: ClientMessage): Promise<ServerMessage> {
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      const ws = this.ws;
      if (!ws || ws.readyState !== OPEN) {
        reject(new ServerError('OFFLINE', 'Not connected to the server; reconnecting…'));
        return;
      }
      const timer = setTimeout(() => {
        this.pending.delete(id);
        reject(new ServerError('TIMEOUT', 'The server did not answer in time.'));
      }, this.opts.requestTimeoutMs);
      this.pending.set(id, { resolve, reject, timer });
      ws.send(JSON.stringify({ ...msg, id }));
    });
  }

  // ---- connection lifecycle ----

  private open(): void {
    this.clearTimers();
    this.setState({ status: 'connecting', retryAt: null });
    let ws: WebSocketLike;
    try {
      ws = this.opts.createSocket(this.opts.url);
    } catch (err) {
      this.closed(`cannot connect: ${String(err)}`);
      return;
    }
    this.ws = ws;
    ws.onopen = () => {
      if (this.ws !== ws) return;
      this.sayHello(this.opts.identity());
    };
    ws.onmessage = (ev: MessageEvent) => {
      if (this.ws !== ws) return;
      this.received(typeof ev.data === 'string' ? ev.data : '');
    };
    ws.onerror = () => {
      /* onclose follows and does the work */
    };
    ws.onclose = (ev: CloseEvent) => {
      if (this.ws !== ws) return;
      this.closed(describeClose(ev));
    };
  }

  private sayHello(identity: Identity): void {
    const ws = this.ws;
    if (!ws) return;
    const id = this.nextId++;
    this.helloId = id;
    const hello: ClientMessage = { type: 'hello', protocol: PROTOCOL_VERSION };
    if (identity.token) hello.token = identity.token;
    else if (identity.name) hello.name = identity.name;
    ws.send(JSON.stringify({ ...hello, id }));
  }

  private received(text: string): void {
    const receivedAt = performance.now();
    this.armLiveness();
    const msg = parseServerMessage(text);
    if (!msg) return;
    if (msg.id !== undefined && msg.id === this.helloId) {
      this.helloAnswered(msg, receivedAt);
      return;
    }
    if (msg.id !== undefined) {
      const p = this.pending.get(msg.id);
      if (p) {
        this.pending.delete(msg.id);
        clearTimeout(p.timer);
        if (msg.type === 'error') p.reject(new ServerError(msg.code, msg.message, msg.field));
        else p.resolve(msg);
      }
    }
    // Replies are also events (a move's reply is the move event): every listener sees them.
    for (const l of this.messageListeners) l(msg, receivedAt);
  }

  private helloAnswered(msg: ServerMessage, receivedAt: number): void {
    this.helloId = null;
    if (msg.type === 'welcome') {
      this.setState({ status: 'online', attempt: 0, retryAt: null, lastError: null });
      for (const l of this.welcomeListeners) l(msg, receivedAt);
      return;
    }
    if (msg.type === 'error' && msg.code === 'BAD_TOKEN') {
      // The server does not know us any more (it restarted): continue as a new guest.
      this.opts.forgetToken?.();
      this.sayHello({ ...this.opts.identity(), token: null });
      return;
    }
    const text = msg.type === 'error' ? msg.message : `unexpected ${msg.type}`;
    this.ws?.close(4000, 'hello refused');
    // A banned player or a closed account is refused for good: no retries until the identity
    // changes (logging in as someone else, or a new guest, starts the socket again).
    const final = msg.type === 'error' && (msg.code === 'BANNED' || msg.code === 'ACCOUNT_CLOSED');
    this.closed(`the server refused the connection: ${text}`, !final);
  }

  private closed(reason: string, retry = true): void {
    const ws = this.ws;
    this.ws = null;
    if (ws) ws.onopen = ws.onclose = ws.onerror = ws.onmessage = null;
    this.clearTimers();
    this.helloId = null;
    this.failPending('CONNECTION_LOST', 'The connection to the server was lost.');
    if (this.stopped) return;
    if (!retry) {
      this.setState({ status: 'offline', attempt: this._state.attempt, retryAt: null, lastError: reason });
      return;
    }
    const attempt = this._state.attempt;
    const delay = backoffDelay(attempt, this.opts.backoff, this.opts.random);
    this.setState({
      status: 'offline',
      attempt: attempt + 1,
      retryAt: Date.now() + delay,
      lastError: this.opts.networkUp() ? reason : 'the network is down',
    });
    this.retryTimer = setTimeout(() => {
      this.retryTimer = null;
      this.open();
    }, delay);
  }

  /** Any message proves the connection alive; after a quiet spell, ask for a pong. */
  private armLiveness(): void {
    if (this.pingTimer) clearTimeout(this.pingTimer);
    if (this.deadTimer) clearTimeout(this.deadTimer);
    this.deadTimer = null;
    this.pingTimer = setTimeout(() => {
      this.pingTimer = null;
      if (!this.ws || this.ws.readyState !== OPEN) return;
      this.ws.send(JSON.stringify({ type: 'ping' }));
      this.deadTimer = setTimeout(() => {
        this.deadTimer = null;
        const ws = this.ws;
        ws?.close(4001, 'no answer');
        this.closed('the server stopped answering');
      }, this.opts.pongTimeoutMs);
    }, this.opts.pingIntervalMs);
  }

  private failPending(code: string, message: string): void {
    const pending = [...this.pending.values()];
    this.pending.clear();
    for (const p of pending) {
      clearTimeout(p.timer);
      p.reject(new ServerError(code, message));
    }
  }

  private clearTimers(): void {
    for (const t of [this.retryTimer, this.pingTimer, this.deadTimer]) if (t) clearTimeout(t);
    this.retryTimer = this.pingTimer = this.deadTimer = null;
  }

  private setState(patch: Partial<ConnectionState>): void {
    this._state = { ...this._state, ...patch };
    for (const l of this.stateListeners) l(this._state);
  }
}

/** Why a connection closed, in words (the code only when nothing better can be said). */
function describeClose(ev: CloseEvent): string {
  if (ev.code === 1001) return 'the server is restarting';
  if (ev.code === 1006) return 'the connection was lost';
  if (ev.code === 1008) return ev.reason ? `the server refused the connection (${ev.reason})` : 'the server refused the connection';
  if (ev.reason) return `the connection closed (${ev.reason})`;
  return `the connection closed (code ${ev.code})`;
}

/** The WebSocket URL of the server that served this page. */
export function defaultSocketUrl(loc: Location = window.location): string {
  const scheme = loc.protocol === 'https:' ? 'wss:' : 'ws:';
  return `${scheme}//${loc.host}/ws`;
}
