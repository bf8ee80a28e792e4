/*
 * Watching (public): the live games list, and the controller with its provider for the app.
 * Spectating a game uses the game feature's page.
 */
export { LiveGames } from './LiveGames';
export { TvPage } from './TvPage';
export { WatchController } from './controller';
export { WatchProvider } from './hooks';
