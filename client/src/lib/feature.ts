/*
 * The contract between the app and its features (features/<name>/). A feature owns a part of
 * the client's state and the server messages that change it: it gives the app a map from
 * message type to handler (each type has one owner; the app dispatches every incoming message
 * by its type), what to do after each welcome (resynchronise) and when the identity changes
 * (forget). The app gives every feature a FeatureContext: requests, notices and the session.
 *
 * Features keep the pure part of their handlers as Reducers (state, message -> state), which
 * tests feed with recorded messages; the controller applies them and adds the effects.
 */
import type { ConnectionState } from '../net/socket';
import type { ClientMessage, PlayerRef, ServerMessage, ServerMessageOf } from '../net/protocol';
import type { Readable } from './store';

export type MessageType = ServerMessage['type'];

/** A message handler: the message and when it arrived (performance.now()). */
export type Handler<T extends MessageType> = (msg: ServerMessageOf<T>, at: number) => void;

/** A feature's handlers by message type. */
export type Handlers = { [T in MessageType]?: Handler<T> };

/** Pure reducers by message type: the state after the message (the same object if unchanged). */
export type Reducers<S> = { [T in MessageType]?: (state: S, msg: ServerMessageOf<T>, at: number) => S };

/** Folds one message into a state with the reducer of its type (none: the same state). */
export function reduceWith<S>(reducers: Reducers<S>, state: S, msg: ServerMessage, at: number): S {
  const reduce = reducers[msg.type] as ((s: S, m: ServerMessage, at: number) => S) | undefined;
  return reduce ? reduce(state, msg, at) : state;
}

/**
 * A handler for each type of `reducers`: it applies its reducer through `apply`, then calls
 * `after` (if given) with the message.
 */
export function handlersOf<S>(
  reducers: Reducers<S>,
  apply: (reduce: (state: S) => S) => void,
  after?: (msg: ServerMessage, at: number) => void,
): Handlers {
  const handlers: Record<string, (msg: ServerMessage, at: number) => void> = {};
  for (const type of Object.keys(reducers)) {
    handlers[type] = (msg, at) => {
      apply((state) => reduceWith(reducers, state, msg, at));
      after?.(msg, at);
    };
  }
  return handlers as Handlers;
}

/** The player as welcomed, with the token that identifies them. */
export interface Me extends PlayerRef {
  token: string;
  /** A moderator (docs/moderation.md). */
  admin?: boolean;
}

/** The player and the connection, as the app keeps them. */
export interface Session {
  conn: ConnectionState;
  me: Me | null;
}

/** What the app gives every feature. */
export interface FeatureContext {
  /** The connection and the player; watch it to follow reconnects and identity changes. */
  session: Readable<Session>;
  /** Sends a request; resolves to its reply, rejects with a ServerError (net/socket.ts). */
  request(msg: ClientMessage): Promise<ServerMessage>;
  /** Sends without waiting for a reply; false when not online. */
  send(msg: ClientMessage): boolean;
  /** Sends a request; an error becomes a notice and the result null. */
  act(msg: ClientMessage): Promise<ServerMessage | null>;
  /** Sends a request; rejects with an Error carrying the server's reason in words (for forms). */
  ask(msg: ClientMessage): Promise<ServerMessage>;
  /** Shows a notice (an error unless said otherwise). */
  notify(text: string, kind?: 'error' | 'info'): void;
  /** The measured one-way network lag in ms, or null (net/socket.ts, lagMs). */
  lag(): number | null;
}

/** What a feature gives the app. */
export interface Feature {
  /** The server messages this feature owns. */
  readonly handlers: Handlers;
  /** After every welcome (the first and each reconnect): ask again for what is shown. */
  welcomed?(msg: ServerMessageOf<'welcome'>, at: number): void;
  /** The identity changed (log in, log out, a new guest): forget this player's state. */
  reset?(): void;
}
