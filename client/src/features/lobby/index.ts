/*
 * The lobby (public): its page, the challenge page, the direct challenge panel (profiles show
 * it), and the controller with its provider for the app.
 */
export { LobbyPage } from './LobbyPage';
export { ChallengePage } from './ChallengePage';
export { DirectChallenge } from './DirectChallenge';
export { LobbyController, type LobbyDeps } from './controller';
export { LobbyProvider } from './hooks';
