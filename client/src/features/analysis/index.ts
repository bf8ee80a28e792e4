/*
 * The free analysis (public): the analysis board page and its address (analysisUrl), the board
 * editor page, the analysis panel (shown by finished games' pages too), and the controller with
 * its provider for the app.
 */
export { AnalysisBoardPage } from './AnalysisBoardPage';
export { AnalysisPanel } from './AnalysisPanel';
export { BoardEditor } from './BoardEditor';
export { AnalysisController } from './controller';
export { AnalysisProvider } from './hooks';
export { analysisUrl } from './url';
