/*
 * The client, composed: the app store (connection, session, notices, the dispatch) and one
 * controller per feature, registered with the store in the order they resynchronise after a
 * welcome. Features do not know each other; what one needs of another is wired here (the
 * lobby finds players through the account feature, the account feature changes identity
 * through the app).
 */
import type { KeyValue } from '../lib/storage';
import type { GameSocket } from '../net/socket';
import { AccountController } from '../features/account';
import { AnalysisController } from '../features/analysis';
import { ArenaController } from '../features/arena';
import { BotsController } from '../features/bots';
import { GamesController } from '../features/game';
import { LobbyController } from '../features/lobby';
import { ModerationController } from '../features/moderation';
import { ReviewController } from '../features/review';
import { SettingsController } from '../features/settings';
import { WatchController } from '../features/watch';
import { AppStore } from './store';

export interface Client {
  app: AppStore;
  analysis: AnalysisController;
  lobby: LobbyController;
  watch: WatchController;
  game: GamesController;
  account: AccountController;
  bots: BotsController;
  moderation: ModerationController;
  settings: SettingsController;
  review: ReviewController;
  arena: ArenaController;
}

/** The store and the features on this socket (not started: the caller starts the socket). */
export function createClient(socket: GameSocket, storage: KeyValue): Client {
  const app = new AppStore(socket, storage);
  const ctx = app.context;
  const account = app.use(new AccountController(ctx, app));
  // After a welcome: the free analysis starts again, then the seek list, the live games and the
  // games the pages show are asked for (in this order).
  const analysis = app.use(new AnalysisController(ctx));
  const lobby = app.use(new LobbyController(ctx, { findPlayer: (username) => account.profile({ username }) }));
  const watch = app.use(new WatchController(ctx));
  const game = app.use(new GamesController(ctx));
  const bots = app.use(new BotsController(ctx));
  const moderation = app.use(new ModerationController(ctx));
  // The player's settings: kept in this browser, and for an account on the server, whose copy
  // follows its welcome.
  const settings = app.use(new SettingsController(ctx, storage));
  // The computer analyses of the finished games the pages show (read again after a welcome).
  const review = app.use(new ReviewController(ctx));
  // Arena tournaments: the list and the arenas the pages watch (watched again after a welcome).
  const arena = app.use(new ArenaController(ctx));
  return { app, analysis, lobby, watch, game, account, bots, moderation, settings, review, arena };
}
