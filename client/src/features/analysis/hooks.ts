/*
 * The analysis controller for views: provided by the app, read with useAnalysis /
 * useAnalysisState.
 */
import { controllerContext, useSelect } from '../../hooks/useSelect';
import type { AnalysisController } from './controller';
import type { AnalysisState } from './state';

const context = controllerContext<AnalysisController>('AnalysisController');

export const AnalysisProvider = context.Provider;
export const useAnalysis = context.use;

export function useAnalysisState<T>(select: (state: AnalysisState) => T): T {
  return useSelect(useAnalysis(), select);
}
