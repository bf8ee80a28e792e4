/*
 * The analysis view fed the server's analysis messages: lines by rank, other analyses ignored,
 * the end.
 */
import { describe, expect, it } from 'vitest';
import { START } from '../../net/fixtures';
import { analysisActive, analysisAsked, analysisBestMove, analysisStarted, applyAnalysisMessage } from './state';

const line = (analysis: number, depth: number, multipv: number, cp: number, pv: string[]) =>
  ({ type: 'analysis', analysis, depth, seldepth: depth + 3, multipv, score: { cp }, nodes: 1000, nps: 1e6, time_ms: 1, pv }) as const;

describe('analysis view', () => {
  it('keeps the latest line of each rank, deeper lines replacing shallower ones', () => {
    let v = analysisStarted(analysisAsked(1, START, 2), 17);
    expect(v.status).toBe('running');
    v = applyAnalysisMessage(v, line(17, 1, 1, 20, ['e4']));
    v = applyAnalysisMessage(v, line(17, 1, 2, 10, ['d4']));
    v = applyAnalysisMessage(v, line(17, 2, 1, 31, ['Nf3', 'Nc6']));
    expect(v.lines.map((l) => l?.depth)).toEqual([2, 1]);
    expect(v.lines[0]).toMatchObject({ score: { cp: 31 }, pv: ['Nf3', 'Nc6'] });
    expect(v.lines[0]).not.toHaveProperty('type');
    expect(v.lines[1]).toMatchObject({ multipv: 2, pv: ['d4'] });
  });

  it('ignores messages of another analysis and lines before the start', () => {
    const asked = analysisAsked(2, START, 1);
    expect(applyAnalysisMessage(asked, line(17, 5, 1, 0, ['e4']))).toBe(asked);
    const v = analysisStarted(asked, 18);
    expect(applyAnalysisMessage(v, line(17, 5, 1, 0, ['e4']))).toBe(v);
    expect(applyAnalysisMessage(v, { type: 'analysis_done', analysis: 17, reason: 'stopped' })).toBe(v);
    // A rank beyond what was asked is not shown.
    expect(applyAnalysisMessage(v, line(18, 5, 2, 0, ['e4']))).toBe(v);
  });

  it('ends at the limit with the best move, or stopped; later lines are dropped', () => {
    let v = analysisStarted(analysisAsked(3, START, 1), 5);
    v = applyAnalysisMessage(v, line(5, 9, 1, 31, ['Nf3', 'Nc6', 'Bb5', 'a6']));
    const done = applyAnalysisMessage(v, { type: 'analysis_done', analysis: 5, reason: 'limit', best: { uci: 'g1f3', san: 'Nf3' } });
    expect(done).toMatchObject({ status: 'done', best: { san: 'Nf3' } });
    expect(done.lines[0]?.depth).toBe(9);
    expect(analysisActive(done)).toBe(false);
    expect(applyAnalysisMessage(done, line(5, 10, 1, 0, ['e4']))).toBe(done);
    const stopped = applyAnalysisMessage(v, { type: 'analysis_done', analysis: 5, reason: 'stopped' });
    expect(stopped).toMatchObject({ status: 'stopped', best: null });
    expect(analysisActive(v)).toBe(true);
    expect(analysisActive(null)).toBe(false);
  });
});

describe('the best move of an analysis', () => {
  it('is the first line\'s first move, or the best move it ended with, for its own position only', () => {
    let v = analysisStarted(analysisAsked(1, START, 2), 5);
    expect(analysisBestMove(v, START)).toBeNull();
    v = applyAnalysisMessage(v, line(5, 3, 2, 10, ['d4']));
    expect(analysisBestMove(v, START)).toBeNull(); // rank 2 only
    v = applyAnalysisMessage(v, line(5, 3, 1, 30, ['Nf3', 'd5']));
    expect(analysisBestMove(v, START)).toMatchObject({ from: 'g1', to: 'f3', san: 'Nf3' });
    expect(analysisBestMove(v, 'rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1')).toBeNull();
    expect(analysisBestMove(null, START)).toBeNull();
    const ended = { ...analysisStarted(analysisAsked(2, START, 1), 6), status: 'done' as const, best: { uci: 'e2e4', san: 'e4' } };
    expect(analysisBestMove(ended, START)).toMatchObject({ from: 'e2', to: 'e4' });
  });
});
