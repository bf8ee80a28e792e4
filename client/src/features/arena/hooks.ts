/*
 * The arena controller for views: provided by the app, read with useArena / useArenaState.
 */
import { controllerContext, useSelect } from '../../hooks/useSelect';
import type { ArenaController } from './controller';
import type { ArenaState } from './state';

const context = controllerContext<ArenaController>('ArenaController');

export const ArenaProvider = context.Provider;
export const useArena = context.use;

export function useArenaState<T>(select: (state: ArenaState) => T): T {
  return useSelect(useArena(), select);
}
