/*
 * Accounts (public): the account and profile pages, the leaderboard panel (the lobby shows it),
 * and the controller with its provider for the app.
 */
export { AccountPage } from './AccountPage';
export { ProfilePage } from './ProfilePage';
export { Leaderboard } from './Leaderboard';
export { AccountController, type Identity } from './controller';
export { AccountProvider } from './hooks';
