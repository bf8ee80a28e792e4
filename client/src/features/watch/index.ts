export { LiveGames } from './LiveGames';
