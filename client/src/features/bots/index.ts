/*
 * "My bots" (public): the page, and the controller with its provider for the app.
 */
export { BotsPage } from './BotsPage';
export { BotsController } from './controller';
export { BotsProvider } from './hooks';
