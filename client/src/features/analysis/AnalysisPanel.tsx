/*
 * Free analysis of the position shown (analyse / analysis_stop, docs/protocol.md): switched on
 * by the player, it follows the position as they browse the moves (each new position stops the
 * previous analysis and starts one), with an evaluation bar, and per line the score, depth and
 * principal variation in SAN. "Stop" cancels it; leaving the page stops it too. The server
 * limits each analysis in time (--analysis-seconds) and reports its best move at the end.
 */
import { useEffect, useState } from 'react';
import { EvalBar, EvalLine } from '../../components/EvalView';
import { useAppState } from '../../hooks/useStore';
import type { SearchLine } from '../../net/protocol';
import { useAnalysis, useAnalysisState } from './hooks';
import type { AnalysisView } from './state';

const MAX_LINES = 3;

export function AnalysisPanel({ fen }: { fen: string }) {
  const analysis = useAnalysis();
  const view = useAnalysisState((v) => v);
  const online = useAppState((s) => s.conn.status === 'online');
  const [on, setOn] = useState(false);
  const [multipv, setMultipv] = useState(1);
  useEffect(() => {
    if (on) analysis.analyse(fen, multipv);
  }, [on, fen, multipv, analysis]);
  useEffect(() => () => analysis.stop(true), [analysis]);

  const shown = view && view.fen === fen ? view : null;
  const active = on && shown !== null && (shown.status === 'starting' || shown.status === 'running');
  const toggle = () => {
    if (active) {
      setOn(false);
      analysis.stop();
    } else if (on) {
      analysis.analyse(fen, multipv); // ended or refused: again
    } else {
      setOn(true);
    }
  };
  return (
    <section className="analysis-panel engine-line" aria-labelledby="analysis-title">
      <div className="analysis-head">
        <h2 id="analysis-title">Analysis</h2>
        <select
          id="analysis-lines"
          value={multipv}
          onChange={(e) => setMultipv(Number(e.target.value))}
          aria-label="Lines"
        >
          {Array.from({ length: MAX_LINES }, (_, i) => (
            <option key={i + 1} value={i + 1}>
              {i + 1} {i === 0 ? 'line' : 'lines'}
            </option>
          ))}
        </select>
        <button type="button" className={active ? undefined : 'primary'} disabled={!online} onClick={toggle}>
          {active ? 'Stop analysis' : 'Analyse'}
        </button>
      </div>
      {shown && <AnalysisBody view={shown} fen={fen} />}
      {!shown && <p className="hint">The engine's evaluation of the position on the board, updated as it searches deeper.</p>}
    </section>
  );
}

function AnalysisBody({ view, fen }: { view: AnalysisView; fen: string }) {
  const lines = view.lines.filter((l): l is SearchLine => l !== undefined);
  const depth = lines[0]?.depth;
  const status =
    view.status === 'starting'
      ? 'Starting…'
      : view.status === 'running'
        ? depth
          ? `Analysing… depth ${depth}`
          : 'Analysing…'
        : view.status === 'done'
          ? `Done${depth ? ` at depth ${depth}` : ''}${view.best ? ` · best move ${view.best.san}` : ''}`
          : view.status === 'stopped'
            ? `Stopped${depth ? ` at depth ${depth}` : ''}`
            : null;
  return (
    <>
      {view.error && (
        <p className="form-error" role="alert">
          {view.error}
        </p>
      )}
      {status && (
        <p className="hint analysis-status" role="status">
          {status}
        </p>
      )}
      {lines[0] && <EvalBar line={lines[0]} />}
      <ol className="analysis-lines" aria-label="Engine lines">
        {lines.map((l, i) => (
          <li key={i}>
            <EvalLine line={l} fen={fen} />
          </li>
        ))}
      </ol>
    </>
  );
}
