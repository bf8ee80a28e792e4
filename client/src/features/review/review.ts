/*
 * What the game page shows of a done analysis, derived by pure functions: the position of each
 * ply, the judged moves and their words ("Blunder. g6 was best."), the better move as an arrow,
 * and the navigation from judged move to judged move (lichess's per-colour "inaccuracies /
 * mistakes / blunders" links, which cycle through them, and the "n" / "p" keys).
 *
 * Plies count from the game's start: ply p is the move san[p - 1], made by White when p is odd in
 * a game that starts with White to move.
 */
import type { AnalysedPosition, AnalysisJudgement, Color, GameAnalysis } from '../../net/protocol';

export const JUDGEMENTS: readonly AnalysisJudgement[] = ['inaccuracy', 'mistake', 'blunder'];

/** The judgement symbols (NAGs $6, $2, $4). */
export const JUDGEMENT_GLYPH: Record<AnalysisJudgement, string> = { inaccuracy: '?!', mistake: '?', blunder: '??' };

const TITLE: Record<AnalysisJudgement, string> = { inaccuracy: 'Inaccuracy', mistake: 'Mistake', blunder: 'Blunder' };

/** "1 blunder", "2 inaccuracies". */
export function countJudgements(n: number, judgement: AnalysisJudgement): string {
  const plural: Record<AnalysisJudgement, string> = { inaccuracy: 'inaccuracies', mistake: 'mistakes', blunder: 'blunders' };
  return `${n} ${n === 1 ? judgement : plural[judgement]}`;
}

/** The analysis's positions by ply (a running analysis may lack some). */
export function positionsByPly(analysis: GameAnalysis): (AnalysedPosition | undefined)[] {
  const out: (AnalysedPosition | undefined)[] = new Array(analysis.positions).fill(undefined);
  for (const p of analysis.plies) if (p.ply >= 0 && p.ply < analysis.positions) out[p.ply] = p;
  return out;
}

/** The colour that made the move of `ply` (>= 1), in a game whose first mover is `first`. */
export function moverOf(ply: number, first: Color = 'white'): Color {
  const firstMove = ply % 2 === 1;
  return firstMove === (first === 'white') ? 'white' : 'black';
}

/** "3. Bc4" / "3... Nf6", as the move list names its moves. */
export function moveName(ply: number, san: string): string {
  return `${Math.ceil(ply / 2)}${ply % 2 ? '.' : '...'} ${san}`;
}

/** What the page says at a judged move, and the better move as a board arrow. */
export interface JudgedMove {
  ply: number;
  judgement: AnalysisJudgement;
  /** "Blunder. g6 was best." */
  text: string;
  /** The engine's line from the position before the move (it starts with the better move). */
  line: string[];
  /** The better move's squares (the previous position's best move), when known. */
  arrow: { from: string; to: string; san: string } | null;
}

/** The judged move that led to `ply`, or null. */
export function judgedMove(analysis: GameAnalysis, ply: number): JudgedMove | null {
  if (ply < 1) return null;
  const byPly = positionsByPly(analysis);
  const here = byPly[ply];
  if (!here?.judgement) return null;
  const before = byPly[ply - 1];
  const better = here.better ?? null;
  const text = better ? `${TITLE[here.judgement]}. ${better} was best.` : `${TITLE[here.judgement]}.`;
  const best = before?.best;
  return {
    ply,
    judgement: here.judgement,
    text,
    line: before?.line ?? (better ? [better] : []),
    arrow: best && best.length >= 4 && better ? { from: best.slice(0, 2), to: best.slice(2, 4), san: better } : null,
  };
}

/** The judgement of each ply's move (index: ply). */
export function judgementsByPly(analysis: GameAnalysis): (AnalysisJudgement | undefined)[] {
  return positionsByPly(analysis).map((p) => p?.judgement);
}

/**
 * The next judged move after `from` (or before it, `step` -1), going round at the end: of one
 * colour and one judgement when given. Null when there is none.
 */
export function nextJudged(
  analysis: GameAnalysis,
  from: number,
  filter: { color?: Color; judgement?: AnalysisJudgement; first?: Color } = {},
  step: 1 | -1 = 1,
): number | null {
  const marks = judgementsByPly(analysis);
  const n = marks.length;
  for (let i = 1; i <= n; i++) {
    const ply = (((from + step * i) % n) + n) % n;
    const j = marks[ply];
    if (!j || ply === 0) continue;
    if (filter.judgement && j !== filter.judgement) continue;
    if (filter.color && moverOf(ply, filter.first) !== filter.color) continue;
    return ply;
  }
  return null;
}

/** The ply a review key goes to ("n": the next judged move, "p": the previous one), or null. */
export function reviewKey(key: string, analysis: GameAnalysis, current: number): number | null {
  if (key === 'n') return nextJudged(analysis, current);
  if (key === 'p') return nextJudged(analysis, current, {}, -1);
  return null;
}
