/*
 * The app store: what belongs to no feature (the connection's state, the player's identity and
 * session, the notices), and the one dispatch of server messages. Every feature registers with
 * use(): its handlers join one map from message type to handler, each type with one owner (a
 * second owner is a programming error), and every incoming message goes to its owner. Messages
 * nobody owns (replies such as "ok" or "bots") only settle their requests in the socket.
 *
 * After every welcome (the first and each reconnect) the store keeps the session token, takes
 * the player, then lets each feature resynchronise in the order they were registered (the
 * welcome itself carries the player's games in progress). Changing identity (log in, log out,
 * a new guest) reconnects with the new token and makes every feature forget what it knew.
 *
 * Features reach the socket through the FeatureContext this store gives them: requests, and
 * requests whose errors become notices people read, so nothing fails silently.
 */
import { readableError } from '../lib/errors';
import { handlersOf, type Feature, type FeatureContext, type Handler, type Handlers, type Me, type MessageType, type Reducers, type Session } from '../lib/feature';
import { KEYS, type KeyValue } from '../lib/storage';
import { Store } from '../lib/store';
import type { ServerMessage, ServerMessageOf } from '../net/protocol';
import type { GameSocket } from '../net/socket';

export interface Notice {
  id: number;
  kind: 'error' | 'info';
  text: string;
}

export interface AppState extends Session {
  notices: Notice[];
}

export const initialAppState: AppState = {
  conn: { status: 'offline', attempt: 0, retryAt: null, lastError: null },
  me: null,
  notices: [],
};

/** The player from a welcome, with the token that identifies them. */
export function welcomedPlayer(msg: ServerMessageOf<'welcome'>): Me {
  return { ...msg.player, token: msg.token, ...(msg.admin ? { admin: true } : {}) };
}

/** The session's own messages: they change what is known of the player. */
export const sessionReducers: Reducers<AppState> = {
  registered: (state, msg) => {
    if (!state.me || state.me.id !== msg.player.id) return state;
    return { ...state, me: { ...state.me, ...msg.player } };
  },
  // This player became a moderator (the site's first account).
  mod_done: (state, msg) => {
    if (msg.action !== 'grant' || !state.me || state.me.id !== msg.player) return state;
    return { ...state, me: { ...state.me, admin: true } };
  },
  // A profile: when it is this player's, it says whether they have an account.
  player: (state, msg) => {
    if (!state.me || state.me.id !== msg.player.id) return state;
    if (state.me.registered === msg.player.registered && state.me.name === msg.player.name) return state;
    return { ...state, me: { ...state.me, registered: msg.player.registered, name: msg.player.name } };
  },
};

export class AppStore extends Store<AppState> {
  /** What every feature gets (see lib/feature.ts). */
  readonly context: FeatureContext;
  private readonly owners = new Map<MessageType, Handler<MessageType>>();
  private readonly features: Feature[] = [];
  private noticeId = 1;
  private readonly socket: GameSocket;
  private readonly storage: KeyValue;

  constructor(socket: GameSocket, storage: KeyValue) {
    super(initialAppState);
    this.socket = socket;
    this.storage = storage;
    this.context = {
      session: this,
      request: (msg) => socket.request(msg),
      send: (msg) => socket.send(msg),
      act: async (msg) => {
        try {
          return await socket.request(msg);
        } catch (err) {
          this.notify(readableError(err));
          return null;
        }
      },
      ask: async (msg) => {
        try {
          return await socket.request(msg);
        } catch (err) {
          throw new Error(readableError(err));
        }
      },
      notify: (text, kind) => this.notify(text, kind),
      lag: () => socket.lagMs(),
    };
    this.own(handlersOf(sessionReducers, (reduce) => this.update(reduce)));
    socket.onState((conn) => this.update((s) => ({ ...s, conn })));
    socket.onMessage((msg, at) => this.received(msg, at));
    socket.onWelcome((msg, at) => this.welcomed(msg, at));
  }

  /** Registers a feature: its handlers join the dispatch, it hears of welcomes and resets. */
  use<F extends Feature>(feature: F): F {
    this.own(feature.handlers);
    this.features.push(feature);
    return feature;
  }

  /** The message types with an owner (for tests and the curious). */
  ownedTypes(): MessageType[] {
    return [...this.owners.keys()];
  }

  private own(handlers: Handlers): void {
    for (const [type, handler] of Object.entries(handlers) as [MessageType, Handler<MessageType>][]) {
      if (this.owners.has(type)) throw new Error(`two features handle "${type}"`);
      this.owners.set(type, handler);
    }
  }

  private received(msg: ServerMessage, at: number): void {
    this.owners.get(msg.type)?.(msg, at);
  }

  private welcomed(msg: ServerMessageOf<'welcome'>, at: number): void {
    this.storage.set(KEYS.token, msg.token);
    this.update((s) => ({ ...s, me: welcomedPlayer(msg) }));
    for (const f of this.features) f.welcomed?.(msg, at);
    // The welcome does not say whether the player has an account; the profile does (on servers
    // with a database; others refuse, which changes nothing).
    if (msg.player.registered === undefined) {
      this.socket.request({ type: 'player_get', player: msg.player.id }).catch(() => undefined);
    }
  }

  // ---- identity ----

  /** Continues as another identity (a session token, or null: a new guest) on a new connection. */
  switchIdentity(token: string | null): void {
    this.storage.set(KEYS.token, token);
    this.socket.stop();
    this.set({ ...initialAppState, notices: this.getState().notices });
    for (const f of this.features) f.reset?.();
    this.socket.start();
  }

  /** Starts over as a new guest (optionally with a name) on the next connection. */
  newGuest(name: string | null): void {
    this.storage.set(KEYS.name, name);
    this.switchIdentity(null);
  }

  /** Reconnects now instead of waiting for the next attempt. */
  retryNow(): void {
    this.socket.retryNow();
  }

  // ---- notices ----

  notify(text: string, kind: Notice['kind'] = 'error'): void {
    const notice = { id: this.noticeId++, kind, text };
    this.update((s) => ({ ...s, notices: [...s.notices.slice(-4), notice] }));
  }

  dismiss(id: number): void {
    this.update((s) => ({ ...s, notices: s.notices.filter((n) => n.id !== id) }));
  }
}
