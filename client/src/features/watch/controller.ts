/*
 * The live games to watch: the server's list (live_games), asked for while a page holds it,
 * again on refresh() and after every reconnect. Spectating a game itself is the game feature's.
 */
import { handlersOf, type Feature, type FeatureContext, type Handlers, type Reducers } from '../../lib/feature';
import { Store } from '../../lib/store';
import type { GameSummary } from '../../net/protocol';

export interface WatchState {
  /** The live games, once the server sent them. */
  liveGames: GameSummary[] | null;
}

export const initialWatchState: WatchState = { liveGames: null };

export const watchReducers: Reducers<WatchState> = {
  live_games: (state, msg) => ({ ...state, liveGames: msg.games }),
};

/** How many games the list asks for. */
const LIMIT = 20;

export class WatchController extends Store<WatchState> implements Feature {
  readonly handlers: Handlers;
  private users = 0;
  private readonly ctx: FeatureContext;

  constructor(ctx: FeatureContext) {
    super(initialWatchState);
    this.ctx = ctx;
    this.handlers = handlersOf(watchReducers, (reduce) => this.update(reduce));
  }

  welcomed(): void {
    if (this.users > 0) this.refresh();
  }

  reset(): void {
    this.set(initialWatchState);
  }

  /** The live games list, refreshed now and after reconnects while held. Returns the release. */
  hold(): () => void {
    this.users++;
    this.refresh();
    return () => {
      this.users--;
    };
  }

  refresh(): void {
    this.ctx.send({ type: 'live_games', limit: LIMIT });
  }
}
