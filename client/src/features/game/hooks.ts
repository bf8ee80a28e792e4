/*
 * The games controller for views: provided by the app, read with useGames / useGamesState.
 */
import { controllerContext, useSelect } from '../../hooks/useSelect';
import type { GamesController } from './controller';
import type { GamesState } from './state';

const context = controllerContext<GamesController>('GamesController');

export const GamesProvider = context.Provider;
export const useGames = context.use;

export function useGamesState<T>(select: (state: GamesState) => T): T {
  return useSelect(useGames(), select);
}

/** Every game the client has a copy of, by id (for lists of the player's games). */
export function useGameList(): GamesState['games'] {
  return useGamesState((s) => s.games);
}
