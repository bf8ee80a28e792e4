/*
 * Test double for the browser's WebSocket: records what the client sends and lets a test play
 * the server (open, messages, close). Used by the Vitest suites only.
 */
import type { WebSocketLike } from './socket';

export class FakeWebSocket implements WebSocketLike {
  readyState = 0;
  onopen: ((ev: Event) => void) | null = null;
  onclose: ((ev: CloseEvent) => void) | null = null;
  onerror: ((ev: Event) => void) | null = null;
  onmessage: ((ev: MessageEvent) => void) | null = null;
  readonly sent: Record<string, unknown>[] = [];
  closedWith: number | null = null;
  readonly url: string;

  constructor(url: string) {
    this.url = url;
  }

  send(data: string): void {
    if (this.readyState !== 1) throw new Error('send on a socket that is not open');
    this.sent.push(JSON.parse(data) as Record<string, unknown>);
  }

  close(code = 1000): void {
    this.closedWith = code;
    this.readyState = 3;
  }

  // ---- the server's side ----

  open(): void {
    this.readyState = 1;
    this.onopen?.(new Event('open'));
  }

  receive(msg: object): void {
    this.onmessage?.({ data: JSON.stringify(msg) } as MessageEvent);
  }

  drop(code = 1006, reason = ''): void {
    this.readyState = 3;
    this.onclose?.({ code, reason } as CloseEvent);
  }

  /** The last message sent of a type. */
  last(type: string): Record<string, unknown> | undefined {
    return [...this.sent].reverse().find((m) => m.type === type);
  }
}

/** A factory that keeps every socket created, newest last. */
export function fakeSockets() {
  const sockets: FakeWebSocket[] = [];
  return {
    sockets,
    create: (url: string) => {
      const s = new FakeWebSocket(url);
      sockets.push(s);
      return s;
    },
    get current(): FakeWebSocket {
      return sockets[sockets.length - 1];
    },
  };
}

export const PLAYER = { id: 'p1', name: 'Ann' };

/** Opens the current socket and answers its hello with a welcome. */
export function welcome(ws: FakeWebSocket, games: object[] = [], token = 'tok1', player = PLAYER): void {
  if (ws.readyState !== 1) ws.open();
  const hello = ws.last('hello');
  ws.receive({ type: 'welcome', protocol: 1, player, token, games, id: hello?.id });
}
