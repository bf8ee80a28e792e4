/*
 * Arena tournaments (public): the tournaments page and a tournament's page (loaded when first
 * shown), and the controller with its provider for the app. Berserk and an arena game's link to
 * its tournament are on the game page (features/game).
 */
export { TournamentPage, TournamentsPage } from './lazy';
export { ArenaController } from './controller';
export { ArenaProvider } from './hooks';
