/*
 * Moderation (public): the moderators' page, the player page's report, block and moderator
 * panel, and the controller with its provider for the app.
 */
export { ModerationController } from './controller';
export { ModerationPage } from './ModerationPage';
export { PlayerModeration } from './PlayerModeration';
export { ModerationProvider } from './hooks';
