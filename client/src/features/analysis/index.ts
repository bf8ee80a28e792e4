/*
 * The free analysis (public): the analysis board page and its address (analysisUrl), the board
 * editor page, the analysis panel (shown by finished games' pages too), the controller with its
 * provider for the app, and the opening name of a line (game pages, the archive, the analysis
 * board).
 */
export { AnalysisBoardPage } from './AnalysisBoardPage';
export { AnalysisPanel } from './AnalysisPanel';
export { BoardEditor } from './BoardEditor';
export { AnalysisController } from './controller';
export { AnalysisProvider } from './hooks';
export { analysisUrl } from './url';
export { OpeningLabel, OpeningName } from './OpeningName';
