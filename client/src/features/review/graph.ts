/*
 * The evaluation graph's geometry, pure: White's win percent after each ply (the analysis's
 * `win`) as points in an SVG box, White's share filled from the bottom up to the curve (so the
 * light area is White's chances, the dark one Black's), the 50% midline, and the ply nearest to
 * a horizontal position (a click on the graph). As lichess's analysis chart, with no library.
 */
import type { AnalysisJudgement, GameAnalysis } from '../../net/protocol';
import { positionsByPly } from './review';

export const GRAPH_WIDTH = 600;
export const GRAPH_HEIGHT = 100;
/** Room at the edges so the dots are not cut. */
const PAD = 5;

export interface GraphPoint {
  ply: number;
  x: number;
  y: number;
  win: number;
  judgement?: AnalysisJudgement;
}

/** The x of a ply in a game of `positions` positions (plies + 1). */
export function plyX(ply: number, positions: number): number {
  if (positions <= 1) return GRAPH_WIDTH / 2;
  return PAD + ((GRAPH_WIDTH - 2 * PAD) * ply) / (positions - 1);
}

/** The y of a win percent (100: top). */
export function winY(win: number): number {
  const w = Math.min(100, Math.max(0, win));
  return PAD + ((GRAPH_HEIGHT - 2 * PAD) * (100 - w)) / 100;
}

/** The points of the positions searched, in ply order. */
export function graphPoints(analysis: GameAnalysis): GraphPoint[] {
  const out: GraphPoint[] = [];
  for (const p of positionsByPly(analysis)) {
    if (!p) continue;
    const point: GraphPoint = { ply: p.ply, x: plyX(p.ply, analysis.positions), y: winY(p.win), win: p.win };
    if (p.judgement) point.judgement = p.judgement;
    out.push(point);
  }
  return out;
}

const num = (v: number) => String(Math.round(v * 10) / 10);

/** The curve through the points ("M x,y L x,y ..."); empty without points. */
export function graphLine(points: readonly GraphPoint[]): string {
  return points.map((p, i) => `${i ? 'L' : 'M'}${num(p.x)},${num(p.y)}`).join(' ');
}

/** White's area: from the bottom edge up to the curve, across the whole width, and back down;
 * empty without points. */
export function graphArea(points: readonly GraphPoint[]): string {
  if (points.length === 0) return '';
  const first = num(points[0].y);
  const last = num(points[points.length - 1].y);
  return `M0,${GRAPH_HEIGHT} L0,${first} ${graphLine(points).replace(/^M/, 'L')} L${GRAPH_WIDTH},${last} L${GRAPH_WIDTH},${GRAPH_HEIGHT} Z`;
}

/** The ply nearest to a click at `fraction` (0: left edge, 1: right edge) of the graph's width. */
export function plyAt(fraction: number, positions: number): number {
  if (positions <= 1) return 0;
  const x = fraction * GRAPH_WIDTH;
  const ply = Math.round(((x - PAD) * (positions - 1)) / (GRAPH_WIDTH - 2 * PAD));
  return Math.min(positions - 1, Math.max(0, ply));
}
