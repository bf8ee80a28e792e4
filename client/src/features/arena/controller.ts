/*
 * The arena feature's controller: its state (state.ts) kept by the arena messages, and what the
 * tournament pages do: list the arenas, create one (accounts), watch one's standings, join it,
 * withdraw from it (a pause).
 *
 * The list is asked for while a page holds it (holdList(), again on refreshList() and after
 * every reconnect: the server does not push it). An arena's page holds the arena (watch()): the
 * controller sends arena_watch when the first holder comes, arena_unwatch when the last goes,
 * and watches it again after every reconnect (the server forgets a closed connection's
 * watches). Methods named ...OrThrow reject with the server's reason in words (for forms to
 * show); the others turn errors into notices and resolve to null.
 */
import { readableError } from '../../lib/errors';
import { handlersOf, type Feature, type FeatureContext, type Handlers } from '../../lib/feature';
import { Holds } from '../../lib/holds';
import { Store } from '../../lib/store';
import type { ArenaFull, TimeControl } from '../../net/protocol';
import { arenaDropped, arenaFailed, arenaReducers, initialArenaState, type ArenaState } from './state';

/** What the create form asks for (docs/protocol.md, arena_create). */
export interface ArenaSettings {
  name: string;
  time: TimeControl;
  /** Its length in minutes (1 to 720). */
  minutes: number;
  /** Seconds from now to its start (0: at once). */
  startsIn: number;
  rated: boolean;
}

export class ArenaController extends Store<ArenaState> implements Feature {
  readonly handlers: Handlers;
  private listUsers = 0;
  /** Arenas held by pages. */
  private readonly watched = new Holds<string>();
  private readonly ctx: FeatureContext;

  constructor(ctx: FeatureContext) {
    super(initialArenaState);
    this.ctx = ctx;
    // An arena's state is kept while a page watches it: a reply that comes after its page left (or
    // a join's from the list) only brings the list up to date.
    this.handlers = handlersOf(
      arenaReducers,
      (reduce) => this.update(reduce),
      (msg) => {
        if (msg.type === 'arena' && !this.watched.has(msg.arena.id)) this.update((s) => arenaDropped(s, msg.arena.id));
      },
    );
  }

  welcomed(): void {
    if (this.listUsers > 0) this.refreshList();
    for (const id of this.watched.keys()) void this.fetch(id);
  }

  /** Another identity: its own place and game are not this one's (asked again on the welcome). */
  reset(): void {
    this.set(initialArenaState);
  }

  // ---- the list ----

  /** The list of arenas, asked for now and after reconnects while held. Returns the release. */
  holdList(): () => void {
    this.listUsers++;
    this.refreshList();
    return () => {
      this.listUsers--;
    };
  }

  refreshList(): void {
    this.ctx.send({ type: 'arena_list' });
  }

  // ---- one arena ----

  /** An arena's full state and standings, while at least one caller holds it. Returns the release. */
  watch(id: string): () => void {
    if (this.watched.add(id) && this.ctx.session.getState().conn.status === 'online') void this.fetch(id);
    return () => {
      if (!this.watched.remove(id)) return;
      this.ctx.send({ type: 'arena_unwatch', arena: id });
      this.update((s) => arenaDropped(s, id));
    };
  }

  /** Creates an arena; resolves to it, rejects with the server's reason in words. */
  async createOrThrow(settings: ArenaSettings): Promise<ArenaFull> {
    const reply = await this.ctx.ask({
      type: 'arena_create',
      name: settings.name.trim(),
      time: settings.time,
      minutes: settings.minutes,
      starts_in: settings.startsIn,
      rated: settings.rated,
    });
    if (reply.type !== 'arena') throw new Error('Unexpected answer from the server.');
    return reply.arena;
  }

  /** Joins an arena (or comes back after a pause); the reply is its state with one's place. */
  join(id: string) {
    return this.ctx.act({ type: 'arena_join', arena: id });
  }

  /** Pauses: one keeps one's place and is not paired until one joins again. */
  withdraw(id: string) {
    return this.ctx.act({ type: 'arena_withdraw', arena: id });
  }

  private async fetch(id: string): Promise<void> {
    try {
      await this.ctx.request({ type: 'arena_watch', arena: id });
    } catch (err) {
      const code = (err as { code?: string }).code;
      if (code === 'OFFLINE' || code === 'CONNECTION_LOST') return; // the next welcome retries
      if (this.watched.has(id)) this.update((s) => arenaFailed(s, id, readableError(err)));
    }
  }
}
