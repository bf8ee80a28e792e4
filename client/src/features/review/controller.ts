/*
 * The game review's controller: the computer analysis of finished games (docs/protocol.md,
 * "Game analysis"). A page that shows an ended game holds it (hold()): the controller reads its
 * analysis (game_analysis_get), again after every reconnect while it is not done (the read also
 * makes the connection follow a run under way: game_analysis_progress, then game_analysis done).
 * request() asks the server to analyse the game (game_analysis_request); a refusal (one at a
 * time, the queue full, no engine) stays in the state for the page to say.
 */
import { readableError } from '../../lib/errors';
import { handlersOf, type Feature, type FeatureContext, type Handlers } from '../../lib/feature';
import { Store } from '../../lib/store';
import { initialReviewState, reviewMissing, reviewPending, reviewReducers, type ReviewState } from './state';

/** Failures that the next welcome retries by itself. */
const OFFLINE = new Set(['OFFLINE', 'CONNECTION_LOST']);

export class ReviewController extends Store<ReviewState> implements Feature {
  readonly handlers: Handlers;
  /** Games held by pages, with how many hold each. */
  private readonly held = new Map<string, number>();
  private readonly ctx: FeatureContext;

  constructor(ctx: FeatureContext) {
    super(initialReviewState);
    this.ctx = ctx;
    this.handlers = handlersOf(reviewReducers, (reduce) => this.update(reduce));
  }

  welcomed(): void {
    for (const id of this.held.keys()) if (this.getState().games[id]?.status !== 'done') void this.read(id);
  }

  reset(): void {
    this.set(initialReviewState);
  }

  /** Reads an ended game's analysis and follows it while held. Returns the release. */
  hold(id: string): () => void {
    const n = this.held.get(id) ?? 0;
    this.held.set(id, n + 1);
    if (n === 0 && this.getState().games[id]?.status !== 'done' && this.ctx.session.getState().conn.status === 'online') {
      void this.read(id);
    }
    return () => {
      const left = (this.held.get(id) ?? 1) - 1;
      if (left > 0) this.held.set(id, left);
      else this.held.delete(id);
    };
  }

  /** Asks the server to analyse the game; the answer (or the refusal) lands in the state. */
  async request(id: string): Promise<void> {
    this.update((s) => reviewPending(s, id, true));
    try {
      await this.ctx.request({ type: 'game_analysis_request', game: id });
    } catch (err) {
      const code = (err as { code?: string }).code ?? '';
      // Someone asked for the same game at the same moment: theirs is the one to follow.
      if (code === 'GAME_ANALYSIS_ASKED') return this.read(id);
      this.update((s) => reviewMissing(s, id, readableError(err)));
    }
  }

  private async read(id: string): Promise<void> {
    this.update((s) => reviewPending(s, id, false));
    try {
      await this.ctx.request({ type: 'game_analysis_get', game: id });
    } catch (err) {
      const code = (err as { code?: string }).code ?? '';
      if (OFFLINE.has(code)) return; // the next welcome reads again
      if (code === 'GAME_NOT_ANALYSED') this.update((s) => reviewMissing(s, id, null));
      else if (code === 'GAME_NOT_FOUND') this.update((s) => reviewMissing(s, id, null, true));
      else this.update((s) => reviewMissing(s, id, readableError(err)));
    }
  }
}
