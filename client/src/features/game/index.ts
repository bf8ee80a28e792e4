/*
 * Games (public): the game page, the controller with its provider for the app, and what other
 * features may read of the games (the list of copies, a player's colour in one).
 */
export { GamePage } from './GamePage';
export { GamesController, type GameCommand } from './controller';
export { GamesProvider, useGameList, useGames } from './hooks';
export { colorOf, type GameState } from './games';
