export { AccountPage } from './AccountPage';
export { ProfilePage } from './ProfilePage';
export { Leaderboard } from './Leaderboard';
