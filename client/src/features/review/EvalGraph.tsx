/*
 * The evaluation graph under the board of an analysed game: White's win percent after each ply
 * (the light area is White's chances), the 50% midline, dots on the inaccuracies, mistakes and
 * blunders in lichess's colours, and the ply shown marked. A click anywhere goes to the nearest
 * ply; the dots are buttons (Enter or Space goes to their move). Geometry in graph.ts.
 */
import { useMemo, type KeyboardEvent, type MouseEvent } from 'react';
import type { GameAnalysis } from '../../net/protocol';
import { GRAPH_HEIGHT, GRAPH_WIDTH, graphArea, graphLine, graphPoints, plyAt } from './graph';
import { moveName } from './review';

export function EvalGraph({
  analysis,
  ply,
  san,
  onView,
}: {
  analysis: GameAnalysis;
  /** The ply shown on the board. */
  ply: number;
  san: readonly string[];
  onView: (ply: number) => void;
}) {
  const points = useMemo(() => graphPoints(analysis), [analysis]);
  const current = points.find((p) => p.ply === ply);
  const onClick = (e: MouseEvent<SVGSVGElement>) => {
    const r = e.currentTarget.getBoundingClientRect();
    if (r.width > 0) onView(plyAt((e.clientX - r.left) / r.width, analysis.positions));
  };
  const go = (target: number) => (e: KeyboardEvent | MouseEvent) => {
    if ('key' in e && e.key !== 'Enter' && e.key !== ' ') return;
    e.preventDefault();
    e.stopPropagation();
    onView(target);
  };
  const name = (p: number) => (p === 0 ? 'the start' : moveName(p, san[p - 1] ?? ''));
  const shown = current ? `; shown: ${Math.round(current.win)}% after ${name(ply)}` : '';
  return (
    <div className="eval-graph">
      <svg
        viewBox={`0 0 ${GRAPH_WIDTH} ${GRAPH_HEIGHT}`}
        role="group"
        aria-label={`Evaluation graph: White's winning chances after each move, even on the middle line${shown}`}
        onClick={onClick}
      >
        <rect className="eval-graph-black" width={GRAPH_WIDTH} height={GRAPH_HEIGHT} />
        <path className="eval-graph-white" d={graphArea(points)} />
        <line className="eval-graph-mid" x1={0} x2={GRAPH_WIDTH} y1={GRAPH_HEIGHT / 2} y2={GRAPH_HEIGHT / 2} />
        <path className="eval-graph-line" d={graphLine(points)} />
        {current && <line className="eval-graph-ply" x1={current.x} x2={current.x} y1={0} y2={GRAPH_HEIGHT} />}
        {points
          .filter((p) => p.judgement && p.ply > 0)
          .map((p) => (
            <circle
              key={p.ply}
              className={`eval-graph-dot ${p.judgement}`}
              cx={p.x}
              cy={p.y}
              r={5}
              role="button"
              tabIndex={0}
              aria-label={`${name(p.ply)}, ${p.judgement}`}
              aria-current={p.ply === ply ? 'true' : undefined}
              onClick={go(p.ply)}
              onKeyDown={go(p.ply)}
            />
          ))}
        {current && !current.judgement && <circle className="eval-graph-current" cx={current.x} cy={current.y} r={3.5} />}
      </svg>
    </div>
  );
}
