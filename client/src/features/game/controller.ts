/*
 * The game feature's controller: the copies of the games shown or played (state.ts), kept by
 * the server's game messages, and what a player does in a game (moves, offers and other
 * commands, claims, berserk in an arena game, chat).
 *
 * A page holds a game (hold()) while it shows it: the controller fetches its full state, again
 * after every reconnect, and stops watching it when the last holder lets go. A game whose events
 * stopped fitting (a gap in plies: games.ts marks it stale) is fetched again the same way. A
 * game the server no longer has in memory may still be in its archive (servers with a
 * database): it is shown from there, read-only.
 *
 * A move shows at once (a pending move) and is sent with the ply it was made at; the server's
 * move event confirms it, its error takes it back (and a STALE_PLY refetches the game).
 */
import { readableError } from '../../lib/errors';
import { handlersOf, type Feature, type FeatureContext, type Handlers } from '../../lib/feature';
import { Holds } from '../../lib/holds';
import type { LocalMove } from '../../lib/chess';
import { Store } from '../../lib/store';
import type { ClientMessage, ServerMessage, ServerMessageOf } from '../../net/protocol';
import { dropPending, gamesReducers, gamesWelcomed, initialGamesState, withPending, type GamesState } from './state';

/** The game commands without arguments (docs/protocol.md). */
export type GameCommand =
  | 'resign'
  | 'abort'
  | 'draw_offer'
  | 'draw_accept'
  | 'draw_decline'
  | 'draw_claim'
  | 'takeback_propose'
  | 'takeback_accept'
  | 'takeback_decline'
  | 'give_time'
  | 'rematch_offer'
  | 'rematch_accept'
  | 'rematch_decline';

type GameStartedListener = (gameId: string, fromRequest: boolean) => void;

export class GamesController extends Store<GamesState> implements Feature {
  readonly handlers: Handlers;
  /** Games held by pages. */
  private readonly watched = new Holds<string>();
  /** Stale games being fetched again. */
  private readonly resyncing = new Set<string>();
  private readonly startedListeners = new Set<GameStartedListener>();
  private readonly ctx: FeatureContext;

  constructor(ctx: FeatureContext) {
    super(initialGamesState);
    this.ctx = ctx;
    this.handlers = handlersOf(gamesReducers, (reduce) => this.update(reduce), (msg) => this.after(msg));
  }

  /** After each of its messages: a game started here opens, a stale game is fetched again. */
  private after(msg: ServerMessage): void {
    if (msg.type === 'game_started') {
      for (const l of this.startedListeners) l(msg.game.id, msg.id !== undefined);
    }
    if (msg.type === 'game') this.resyncing.delete(msg.game.id);
    this.resyncStale();
  }

  welcomed(msg: ServerMessageOf<'welcome'>, at: number): void {
    this.update((s) => gamesWelcomed(s, msg, at));
    this.resyncing.clear();
    for (const id of this.watched.keys()) void this.fetch(id);
  }

  reset(): void {
    this.set(initialGamesState);
  }

  /** Called when a game starts for this player (a seek or challenge accepted, a rematch). */
  onGameStarted(listener: GameStartedListener): () => void {
    this.startedListeners.add(listener);
    return () => {
      this.startedListeners.delete(listener);
    };
  }

  /** A game's full state and its events, while at least one caller holds it. Returns the release. */
  hold(id: string): () => void {
    if (this.watched.add(id) && this.ctx.session.getState().conn.status === 'online') void this.fetch(id);
    return () => {
      if (this.watched.remove(id)) this.ctx.send({ type: 'unwatch', game: id });
    };
  }

  /**
   * Shows a move at once and sends it, with the measured network lag and whether it is a premove
   * (the server's lag compensation: docs/protocol.md); the server's answer confirms or reverts it.
   */
  async move(gameId: string, move: LocalMove, premove = false): Promise<boolean> {
    const { games, pending } = this.getState();
    const game = games[gameId];
    if (!game || pending[gameId]) return false;
    const ply = game.ply + 1;
    this.update((s) =>
      withPending(s, gameId, { ply, uci: move.uci, san: move.san, fen: move.fen, from: move.from, to: move.to }),
    );
    try {
      const lag = this.ctx.lag();
      await this.ctx.request({
        type: 'move',
        game: gameId,
        move: move.uci,
        ply: game.ply,
        ...(lag !== null ? { lag: Math.min(lag, 10000) } : {}),
        ...(premove ? { premove: true } : {}),
      });
      return true;
    } catch (err) {
      this.update((s) => dropPending(s, gameId, ply));
      const code = (err as { code?: string }).code;
      if (code === 'STALE_PLY') void this.fetch(gameId);
      this.ctx.notify(readableError(err));
      return false;
    }
  }

  command(gameId: string, type: GameCommand) {
    return this.ctx.act({ type, game: gameId } as ClientMessage);
  }

  /** Goes berserk in an arena game before one's first move (half the clock, no increment). */
  berserk(gameId: string) {
    return this.ctx.act({ type: 'arena_berserk', game: gameId });
  }

    claimAbandoned(gameId: string, result: 'win' | 'draw') {
    return this.ctx.act({ type: 'abandon_claim', game: gameId, result });
  }

  chat(gameId: string, text: string) {
    return this.ctx.act({ type: 'chat', game: gameId, text });
  }

  private resyncStale(): void {
    for (const game of Object.values(this.getState().games)) {
      if (game.stale && !this.resyncing.has(game.id)) {
        this.resyncing.add(game.id);
        void this.fetch(game.id);
      }
    }
  }

  private async fetch(id: string): Promise<void> {
    try {
      await this.ctx.request({ type: 'watch', game: id });
    } catch (err) {
      this.resyncing.delete(id);
      const code = (err as { code?: string }).code;
      if (code === 'OFFLINE' || code === 'CONNECTION_LOST') return; // the next welcome retries
      // Not in memory: a server with a database may still have it in its archive.
      if (code === 'GAME_NOT_FOUND' && (await this.fetchRecord(id))) return;
      this.update((s) => ({ ...s, errors: { ...s.errors, [id]: readableError(err) } }));
    }
  }

  /** A finished game from the archive (the reducer stores it); false when there is none. */
  private async fetchRecord(id: string): Promise<boolean> {
    try {
      const reply = await this.ctx.request({ type: 'game_record', game: id });
      return reply.type === 'game_record';
    } catch {
      return false;
    }
  }
}
