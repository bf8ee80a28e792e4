/*
 * The lobby controller for views: provided by the app, read with useLobby / useLobbyState.
 */
import { controllerContext, useSelect } from '../../hooks/useSelect';
import type { LobbyController } from './controller';
import type { LobbyState } from './state';

const context = controllerContext<LobbyController>('LobbyController');

export const LobbyProvider = context.Provider;
export const useLobby = context.use;

export function useLobbyState<T>(select: (state: LobbyState) => T): T {
  return useSelect(useLobby(), select);
}
