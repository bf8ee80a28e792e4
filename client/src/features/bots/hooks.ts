/*
 * The bots controller for views: provided by the app, read with useBots.
 */
import { controllerContext } from '../../hooks/useSelect';
import type { BotsController } from './controller';

const context = controllerContext<BotsController>('BotsController');

export const BotsProvider = context.Provider;
export const useBots = context.use;
