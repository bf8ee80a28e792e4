export { GamePage } from './GamePage';
export { Board } from './Board';
export { AnalysisPanel } from './AnalysisPanel';
