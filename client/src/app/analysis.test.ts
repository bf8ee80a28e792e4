import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { welcome } from '../net/fakeSocket';
import { START } from './fixtures';
import { storeOnFakeSocket } from './testStore';
import { analysisActive, analysisAsked, analysisStarted, applyAnalysisMessage } from './analysis';

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

describe('Store analysis', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());
  const AFTER_E4 = 'rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1';

  async function started(f: ReturnType<typeof storeOnFakeSocket>['f'], id: number, fen: string) {
    await vi.waitFor(() => expect(f.current.last('analyse')).toMatchObject({ fen }));
    const sent = f.current.last('analyse')!;
    f.current.receive({ type: 'analysis_started', analysis: id, fen, movetime: 60000, multipv: sent.multipv, id: sent.id });
  }

  it('streams lines, and moving to another position stops the first analysis before the next', async () => {
    const { f, store } = storeOnFakeSocket();
    welcome(f.current);
    store.analyse(START, 2);
    expect(store.getState().analysis).toMatchObject({ status: 'starting', fen: START, multipv: 2 });
    await started(f, 17, START);
    await vi.waitFor(() => expect(store.getState().analysis?.status).toBe('running'));
    f.current.receive(line(17, 6, 1, 25, ['e4', 'e5']));
    expect(store.getState().analysis?.lines[0]?.pv).toEqual(['e4', 'e5']);

    f.current.sent.length = 0;
    store.analyse(AFTER_E4);
    await vi.waitFor(() => expect(f.current.last('analysis_stop')).toMatchObject({ analysis: 17 }));
    f.current.receive({ type: 'ok', id: f.current.last('analysis_stop')!.id });
    await Promise.resolve();
    expect(f.current.last('analyse')).toBeUndefined(); // the server frees the slot at analysis_done
    f.current.receive(line(17, 7, 1, 30, ['e4'])); // late line of the old analysis: ignored
    f.current.receive({ type: 'analysis_done', analysis: 17, reason: 'stopped' });
    await started(f, 18, AFTER_E4);
    await vi.waitFor(() => expect(store.getState().analysis).toMatchObject({ id: 18, status: 'running', lines: [] }));
  });

  it('stops an analysis still starting as soon as it has an id', async () => {
    const { f, store } = storeOnFakeSocket();
    welcome(f.current);
    store.analyse(START);
    await vi.waitFor(() => expect(f.current.last('analyse')).toBeDefined());
    store.stopAnalysis();
    expect(store.getState().analysis?.status).toBe('stopped');
    await started(f, 20, START);
    await vi.waitFor(() => expect(f.current.last('analysis_stop')).toMatchObject({ analysis: 20 }));
    expect(store.getState().analysis?.status).toBe('stopped');
  });

  it('shows the server’s refusal', async () => {
    const { f, store } = storeOnFakeSocket();
    welcome(f.current);
    store.analyse('not a fen');
    await vi.waitFor(() => expect(f.current.last('analyse')).toBeDefined());
    f.current.receive({ type: 'error', code: 'FEN_INVALID', message: 'not a legal position', id: f.current.last('analyse')!.id });
    await vi.waitFor(() => expect(store.getState().analysis).toMatchObject({ status: 'error', error: 'Not a legal position.' }));
  });

  it('starts again after a reconnect (analyses end with their connection)', async () => {
    const { f, store } = storeOnFakeSocket();
    welcome(f.current);
    store.analyse(AFTER_E4);
    await started(f, 3, AFTER_E4);
    await vi.waitFor(() => expect(store.getState().analysis?.status).toBe('running'));
    f.current.drop();
    vi.advanceTimersByTime(300);
    welcome(f.current);
    await started(f, 1, AFTER_E4);
    await vi.waitFor(() => expect(store.getState().analysis).toMatchObject({ id: 1, status: 'running' }));
    expect(f.current.last('analysis_stop')).toBeUndefined();
  });
});
