/*
 * The watch controller for views: provided by the app, read with useWatch / useWatchState.
 */
import { controllerContext, useSelect } from '../../hooks/useSelect';
import type { WatchController, WatchState } from './controller';

const context = controllerContext<WatchController>('WatchController');

export const WatchProvider = context.Provider;
export const useWatch = context.use;

export function useWatchState<T>(select: (state: WatchState) => T): T {
  return useSelect(useWatch(), select);
}
