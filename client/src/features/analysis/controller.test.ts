/*
 * The free analysis's controller on a fake socket: lines streamed, a running analysis stopped
 * (and its end awaited) before the next starts, a refusal shown, a restart after a reconnect.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { clientOnFakeSocket } from '../../app/testClient';
import { welcome } from '../../net/fakeSocket';
import { START } from '../../net/fixtures';

const line = (analysis: number, depth: number, multipv: number, cp: number, pv: string[]) =>
  ({ type: 'analysis', analysis, depth, seldepth: depth + 3, multipv, score: { cp }, nodes: 1000, nps: 1e6, time_ms: 1, pv }) as const;

describe('AnalysisController', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());
  const AFTER_E4 = 'rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1';

  async function started(f: ReturnType<typeof clientOnFakeSocket>['f'], id: number, fen: string) {
    await vi.waitFor(() => expect(f.current.last('analyse')).toMatchObject({ fen }));
    const sent = f.current.last('analyse')!;
    f.current.receive({ type: 'analysis_started', analysis: id, fen, movetime: 60000, multipv: sent.multipv, id: sent.id });
  }

  it('streams lines, and moving to another position stops the first analysis before the next', async () => {
    const { f, client } = clientOnFakeSocket();
    const analysis = client.analysis;
    welcome(f.current);
    analysis.analyse(START, 2);
    expect(analysis.getState()).toMatchObject({ status: 'starting', fen: START, multipv: 2 });
    await started(f, 17, START);
    await vi.waitFor(() => expect(analysis.getState()?.status).toBe('running'));
    f.current.receive(line(17, 6, 1, 25, ['e4', 'e5']));
    expect(analysis.getState()?.lines[0]?.pv).toEqual(['e4', 'e5']);

    f.current.sent.length = 0;
    analysis.analyse(AFTER_E4);
    await vi.waitFor(() => expect(f.current.last('analysis_stop')).toMatchObject({ analysis: 17 }));
    f.current.receive({ type: 'ok', id: f.current.last('analysis_stop')!.id });
    await Promise.resolve();
    expect(f.current.last('analyse')).toBeUndefined(); // the server frees the slot at analysis_done
    f.current.receive(line(17, 7, 1, 30, ['e4'])); // late line of the old analysis: ignored
    f.current.receive({ type: 'analysis_done', analysis: 17, reason: 'stopped' });
    await started(f, 18, AFTER_E4);
    await vi.waitFor(() => expect(analysis.getState()).toMatchObject({ id: 18, status: 'running', lines: [] }));
  });

  it('starts the next analysis after a while when the stopped one never reports its end', async () => {
    const { f, client } = clientOnFakeSocket();
    const analysis = client.analysis;
    welcome(f.current);
    analysis.analyse(START);
    await started(f, 30, START);
    f.current.sent.length = 0;
    analysis.analyse(AFTER_E4);
    await vi.waitFor(() => expect(f.current.last('analysis_stop')).toMatchObject({ analysis: 30 }));
    f.current.receive({ type: 'ok', id: f.current.last('analysis_stop')!.id });
    await vi.advanceTimersByTimeAsync(2900);
    expect(f.current.last('analyse')).toBeUndefined(); // still waiting for analysis_done
    await vi.advanceTimersByTimeAsync(100);
    await started(f, 31, AFTER_E4);
    await vi.waitFor(() => expect(analysis.getState()).toMatchObject({ id: 31, status: 'running' }));
  });

  it('stops an analysis still starting as soon as it has an id', async () => {
    const { f, client } = clientOnFakeSocket();
    const analysis = client.analysis;
    welcome(f.current);
    analysis.analyse(START);
    await vi.waitFor(() => expect(f.current.last('analyse')).toBeDefined());
    analysis.stop();
    expect(analysis.getState()?.status).toBe('stopped');
    await started(f, 20, START);
    await vi.waitFor(() => expect(f.current.last('analysis_stop')).toMatchObject({ analysis: 20 }));
    expect(analysis.getState()?.status).toBe('stopped');
  });

  it('shows the server’s refusal', async () => {
    const { f, client } = clientOnFakeSocket();
    const analysis = client.analysis;
    welcome(f.current);
    analysis.analyse('not a fen');
    await vi.waitFor(() => expect(f.current.last('analyse')).toBeDefined());
    f.current.receive({ type: 'error', code: 'FEN_INVALID', message: 'not a legal position', id: f.current.last('analyse')!.id });
    await vi.waitFor(() => expect(analysis.getState()).toMatchObject({ status: 'error', error: 'Not a legal position.' }));
  });

  it('starts again after a reconnect (analyses end with their connection)', async () => {
    const { f, client } = clientOnFakeSocket();
    const analysis = client.analysis;
    welcome(f.current);
    analysis.analyse(AFTER_E4);
    await started(f, 3, AFTER_E4);
    await vi.waitFor(() => expect(analysis.getState()?.status).toBe('running'));
    f.current.drop();
    vi.advanceTimersByTime(300);
    welcome(f.current);
    await started(f, 1, AFTER_E4);
    await vi.waitFor(() => expect(analysis.getState()).toMatchObject({ id: 1, status: 'running' }));
    expect(f.current.last('analysis_stop')).toBeUndefined();
  });
});
