/*
 * The review controller against the fake socket: a held game's analysis read, none yet, asked
 * for and followed to the end, read again after a reconnect while it runs; the refusals in words.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { clientOnFakeSocket } from '../../app/testClient';
import { welcome } from '../../net/fakeSocket';
import { SCHOLAR } from './fixtures';

function setup() {
  const { f, client } = clientOnFakeSocket();
  welcome(f.current);
  return { f, review: client.review };
}

beforeEach(() => vi.useFakeTimers());
afterEach(() => vi.useRealTimers());

const flush = () => vi.advanceTimersByTimeAsync(0);

describe('ReviewController', () => {
  it('reads a held game’s analysis: none yet, then asked for, followed and done', async () => {
    const { f, review } = setup();
    const release = review.hold('g1');
    const get = f.current.last('game_analysis_get')!;
    expect(get).toMatchObject({ game: 'g1' });
    expect(review.getState().games.g1.status).toBe('loading');
    f.current.receive({ type: 'error', code: 'GAME_NOT_ANALYSED', message: 'this game has no computer analysis', id: get.id });
    await flush();
    expect(review.getState().games.g1).toEqual({ status: 'none', analysis: null, error: null });

    void review.request('g1');
    expect(review.getState().games.g1.status).toBe('asking');
    const ask = f.current.last('game_analysis_request')!;
    expect(ask).toMatchObject({ game: 'g1' });
    f.current.receive({ type: 'game_analysis', game: 'g1', analysis: { state: 'running', positions: 8, searched: 0, nodes: 50000, plies: [] }, id: ask.id });
    f.current.receive({ type: 'game_analysis_progress', game: 'g1', searched: 5, positions: 8 });
    await flush();
    expect(review.getState().games.g1).toMatchObject({ status: 'running', analysis: { searched: 5 } });
    f.current.receive({ type: 'game_analysis', game: 'g1', analysis: SCHOLAR });
    expect(review.getState().games.g1).toEqual({ status: 'done', analysis: SCHOLAR, error: null });

    // Held again: a done analysis is not read again.
    release();
    const sent = f.current.sent.length;
    review.hold('g1')();
    expect(f.current.sent.length).toBe(sent);
  });

  it('reads a running analysis again after a reconnect, not a done one', async () => {
    const { f, review } = setup();
    review.hold('g1');
    review.hold('g2');
    const [g1, g2] = f.current.sent.filter((m) => m.type === 'game_analysis_get');
    f.current.receive({ type: 'game_analysis', game: 'g1', analysis: { ...SCHOLAR, state: 'running', searched: 3 }, id: g1.id });
    f.current.receive({ type: 'game_analysis', game: 'g2', analysis: SCHOLAR, id: g2.id });
    await flush();
    f.current.drop();
    vi.advanceTimersByTime(300);
    f.current.open();
    welcome(f.current);
    const gets = f.current.sent.filter((m) => m.type === 'game_analysis_get');
    expect(gets.map((m) => m.game)).toEqual(['g1']);
  });

  it('says the refusals, and follows the analysis asked for at the same moment by someone else', async () => {
    const { f, review } = setup();
    const refusals = [
      ['GAME_ANALYSIS_LIMIT', 'you already have a game analysis under way; wait for it to finish', 'You already have a game analysis under way; wait for it to finish.'],
      ['ANALYSIS_QUEUE_FULL', "the server's analysis queue is full; try again later", "The server's analysis queue is full; try again later."],
      ['ANALYSIS_UNAVAILABLE', 'analysis is not available on this server', 'Analysis is not available on this server.'],
    ];
    for (const [code, message, words] of refusals) {
      void review.request('g1');
      f.current.receive({ type: 'error', code, message, id: f.current.last('game_analysis_request')!.id });
      await flush();
      expect(review.getState().games.g1).toEqual({ status: 'none', analysis: null, error: words });
    }
    void review.request('g1');
    f.current.receive({ type: 'error', code: 'GAME_ANALYSIS_ASKED', message: 'asked at the same moment', id: f.current.last('game_analysis_request')!.id });
    await flush();
    const get = f.current.last('game_analysis_get')!;
    expect(get).toMatchObject({ game: 'g1' });
    f.current.receive({ type: 'game_analysis', game: 'g1', analysis: SCHOLAR, id: get.id });
    expect(review.getState().games.g1.status).toBe('done');
  });

  it('has nothing to show for a game the server does not know', async () => {
    const { f, review } = setup();
    review.hold('zz');
    f.current.receive({ type: 'error', code: 'GAME_NOT_FOUND', message: 'no such game', id: f.current.last('game_analysis_get')!.id });
    await flush();
    expect(review.getState().games.zz.status).toBe('unavailable');
  });
});
