import { describe, expect, it } from 'vitest';
import { reduceWith } from '../../lib/feature';
import type { ServerMessage } from '../../net/protocol';
import { SCHOLAR, SCHOLAR_RUNNING } from './fixtures';
import { initialReviewState, reviewMissing, reviewPending, reviewReducers, type ReviewState } from './state';

const reduce = (state: ReviewState, msg: object) => reduceWith(reviewReducers, state, msg as ServerMessage, 0);

describe('review state', () => {
  it('follows an analysis from the request to the end', () => {
    let s = reviewPending(initialReviewState, 'g1', true);
    expect(s.games.g1).toEqual({ status: 'asking', analysis: null, error: null });
    s = reduce(s, { type: 'game_analysis', game: 'g1', analysis: { ...SCHOLAR_RUNNING, searched: 0, plies: [] }, id: 4 });
    expect(s.games.g1.status).toBe('running');
    s = reduce(s, { type: 'game_analysis_progress', game: 'g1', searched: 3, positions: 8 });
    expect(s.games.g1.analysis).toMatchObject({ state: 'running', searched: 3, positions: 8 });
    // Late or repeated progress does not go back.
    expect(reduce(s, { type: 'game_analysis_progress', game: 'g1', searched: 2, positions: 8 })).toBe(s);
    s = reduce(s, { type: 'game_analysis', game: 'g1', analysis: SCHOLAR });
    expect(s.games.g1).toEqual({ status: 'done', analysis: SCHOLAR, error: null });
    expect(reduce(s, { type: 'game_analysis_progress', game: 'g1', searched: 7, positions: 8 })).toBe(s);
    // Another game's messages leave this one alone.
    const other = reduce(s, { type: 'game_analysis_progress', game: 'g2', searched: 1, positions: 20 });
    expect(other.games.g1).toBe(s.games.g1);
    expect(other.games.g2).toMatchObject({ status: 'running', analysis: { searched: 1, positions: 20 } });
  });

  it('knows when there is none, why, and keeps what it has', () => {
    let s = reviewPending(initialReviewState, 'g1', false);
    expect(s.games.g1.status).toBe('loading');
    expect(reviewPending(s, 'g1', false)).toBe(s);
    s = reviewMissing(s, 'g1', null);
    expect(s.games.g1).toEqual({ status: 'none', analysis: null, error: null });
    s = reviewMissing(reviewPending(s, 'g1', true), 'g1', 'The server’s analysis queue is full; try again later.');
    expect(s.games.g1).toEqual({ status: 'none', analysis: null, error: 'The server’s analysis queue is full; try again later.' });
    expect(reviewMissing(s, 'g2', null, true).games.g2.status).toBe('unavailable');
    const done = reduce(s, { type: 'game_analysis', game: 'g1', analysis: SCHOLAR });
    expect(reviewMissing(done, 'g1', null).games.g1).toMatchObject({ status: 'done', analysis: SCHOLAR });
  });
});
