export { GamePage } from './GamePage';
export { AnalysisPanel } from './AnalysisPanel';
