export { GamePage } from './GamePage';
