/*
 * The tournament pages, one chunk loaded when a tournament page is first shown (lazy.tsx).
 */
export { TournamentPage } from './TournamentPage';
export { TournamentsPage } from './TournamentsPage';
