/*
 * The free analysis of one position (analyse / analysis_stop, docs/protocol.md), as the page
 * shows it: which position, the server's analysis id once it started, the latest line of each
 * multipv rank, and how it ended. Pure functions over the server's messages; the controller
 * (controller.ts) decides what to start and stop (one analysis per connection at a time).
 *
 * Lines are kept by rank (multipv 1 first); a line of a deeper search replaces the rank's
 * previous one. Messages of another analysis id (one stopped earlier, say) are ignored.
 */
import { parseTypedMove, playUci, type LocalMove } from '../../lib/chess';
import type { Reducers } from '../../lib/feature';
import type { SearchLine, ServerMessageOf } from '../../net/protocol';

export type AnalysisStatus = 'starting' | 'running' | 'done' | 'stopped' | 'error';

export interface AnalysisView {
  /** Grows with every analysis the page asks for; the controller's requests carry it. */
  seq: number;
  /** The position asked for (FEN). */
  fen: string;
  multipv: number;
  /** The server's id, from analysis_started; null until then. */
  id: number | null;
  status: AnalysisStatus;
  /** The latest line of each rank, index multipv-1 (holes while a rank has not reported). */
  lines: (SearchLine | undefined)[];
  /** The best move when the search reached its limit. */
  best: { uci: string; san: string } | null;
  error: string | null;
}

/** A new analysis asked for, before the server answered. */
export function analysisAsked(seq: number, fen: string, multipv: number): AnalysisView {
  return { seq, fen, multipv, id: null, status: 'starting', lines: [], best: null, error: null };
}

/** The server started it (analysis_started): its id. */
export function analysisStarted(view: AnalysisView, id: number): AnalysisView {
  return { ...view, id, status: 'running' };
}

/** Folds an analysis line or its end into the view; the same view when it is not about it. */
export function applyAnalysisMessage(
  view: AnalysisView,
  msg: ServerMessageOf<'analysis'> | ServerMessageOf<'analysis_done'>,
): AnalysisView {
  if (view.id === null || msg.analysis !== view.id) return view;
  if (msg.type === 'analysis_done') {
    const status = msg.reason === 'stopped' ? 'stopped' : 'done';
    return { ...view, status, best: msg.best ?? null };
  }
  if (view.status !== 'running') return view;
  const rank = Math.max(1, msg.multipv ?? 1);
  if (rank > view.multipv) return view;
  const lines = [...view.lines];
  const { type: _type, analysis: _analysis, ...line } = msg;
  lines[rank - 1] = line;
  return { ...view, lines };
}

/** Whether the analysis may still send lines (asked for, or running). */
export function analysisActive(view: AnalysisView | null): boolean {
  return view !== null && (view.status === 'starting' || view.status === 'running');
}

/** The feature's state: the analysis a page shows (one at a time), or null. */
export type AnalysisState = AnalysisView | null;

/** The analysis messages, folded into the analysis shown (nothing shown: nothing changes). */
export const analysisReducers: Reducers<AnalysisState> = {
  analysis: (view, msg) => (view ? applyAnalysisMessage(view, msg) : view),
  analysis_done: (view, msg) => (view ? applyAnalysisMessage(view, msg) : view),
};

/**
 * The best move so far of the analysis of `fen` (the first line's first move, or the best move
 * it ended with), with its squares; null when the analysis shown is of another position or has
 * no move yet.
 */
export function analysisBestMove(view: AnalysisView | null, fen: string): LocalMove | null {
  if (!view || view.fen !== fen) return null;
  const san = view.lines[0]?.pv[0];
  if (san) return parseTypedMove(fen, san);
  return view.best ? playUci(fen, view.best.uci) : null;
}
