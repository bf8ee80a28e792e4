/*
 * The moderation controller for views: provided by the app, read with useModeration.
 */
import { controllerContext } from '../../hooks/useSelect';
import type { ModerationController } from './controller';

const context = controllerContext<ModerationController>('ModerationController');

export const ModerationProvider = context.Provider;
export const useModeration = context.use;
