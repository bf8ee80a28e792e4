/*
 * The game review's state: the computer analysis of each finished game the client asked about
 * (docs/analysis.md), with its progress while it runs and the refusal to show, if any. Pure
 * reducers by message type (game_analysis, game_analysis_progress) and pure steps for what the
 * controller (controller.ts) learns from its requests; tests feed them recorded messages.
 */
import type { Reducers } from '../../lib/feature';
import type { GameAnalysis, ServerMessageOf } from '../../net/protocol';

/**
 * Where a game's analysis stands: being read, none yet (it may be asked for), being asked for,
 * running on the server, done, or not to be had (the server has no such game).
 */
export type ReviewStatus = 'loading' | 'none' | 'asking' | 'running' | 'done' | 'unavailable';

export interface GameReview {
  status: ReviewStatus;
  /** The analysis as the server last sent it (running: the positions searched so far). */
  analysis: GameAnalysis | null;
  /** A refusal or failure in words (one at a time, queue full, unavailable), or null. */
  error: string | null;
}

export interface ReviewState {
  games: Record<string, GameReview>;
}

export const initialReviewState: ReviewState = { games: {} };

function withGame(state: ReviewState, id: string, review: GameReview): ReviewState {
  return { games: { ...state.games, [id]: review } };
}

export const reviewReducers: Reducers<ReviewState> = {
  game_analysis: (state, msg) =>
    withGame(state, msg.game, {
      status: msg.analysis.state === 'done' ? 'done' : 'running',
      analysis: msg.analysis,
      error: null,
    }),
  // Progress of a run this connection follows; a late one never undoes the end.
  game_analysis_progress: (state, msg: ServerMessageOf<'game_analysis_progress'>) => {
    const prev = state.games[msg.game];
    if (prev?.status === 'done') return state;
    const analysis: GameAnalysis = prev?.analysis ?? {
      state: 'running',
      positions: msg.positions,
      searched: 0,
      nodes: 0,
      plies: [],
    };
    if (prev?.status === 'running' && analysis.searched >= msg.searched) return state;
    return withGame(state, msg.game, {
      status: 'running',
      analysis: { ...analysis, searched: msg.searched, positions: msg.positions },
      error: null,
    });
  },
};

/** A read or a request is on its way: a game not known yet is loading, one asked for is asking. */
export function reviewPending(state: ReviewState, id: string, asking: boolean): ReviewState {
  const prev = state.games[id];
  if (!asking && prev) return state;
  return withGame(state, id, { status: asking ? 'asking' : 'loading', analysis: prev?.analysis ?? null, error: null });
}

/**
 * The server has no analysis of the game (`error`: why, for people; null when that is simply so)
 * or cannot give one (`unavailable`: no such game). An analysis the state already has stays.
 */
export function reviewMissing(state: ReviewState, id: string, error: string | null, unavailable = false): ReviewState {
  const prev = state.games[id];
  if (prev?.analysis) return withGame(state, id, { ...prev, status: prev.analysis.state === 'done' ? 'done' : 'running', error });
  return withGame(state, id, { status: unavailable ? 'unavailable' : 'none', analysis: null, error });
}
