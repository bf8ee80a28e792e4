export { LobbyPage } from './LobbyPage';
export { ChallengePage } from './ChallengePage';
