export { AnalysisBoardPage } from './AnalysisBoardPage';
