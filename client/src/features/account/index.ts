export { AccountPage } from './AccountPage';
export { ProfilePage } from './ProfilePage';
