/*
 * The free analysis's controller (docs/protocol.md: analyse, analysis_stop): the analysis a
 * page shows (state.ts folds the server's lines into it), and the requests that start and stop
 * it.
 *
 * The server runs one analysis per connection and frees its slot only at analysis_done, so a
 * new analysis first stops the running one and waits for its end; a queue orders these steps.
 * Each page request takes a sequence number, and a step whose number is not the latest any more
 * does nothing (the page moved on meanwhile). Analyses end with their connection: after a
 * reconnect, one the page still shows starts again.
 */
import { readableError } from '../../lib/errors';
import { handlersOf, type Feature, type FeatureContext, type Handlers } from '../../lib/feature';
import { Store } from '../../lib/store';
import type { ServerMessageOf } from '../../net/protocol';
import { analysisActive, analysisAsked, analysisReducers, analysisStarted, type AnalysisState } from './state';

/** How long a stopped analysis may take to report its end before the next one starts anyway. */
const ENDED_WAIT_MS = 3000;

export class AnalysisController extends Store<AnalysisState> implements Feature {
  readonly handlers: Handlers;
  /** The page's latest request. */
  private seq = 0;
  /** The server's running analysis (until its analysis_done), and who waits for that end. */
  private running: number | null = null;
  private ended: (() => void) | null = null;
  private queue: Promise<void> = Promise.resolve();
  private readonly ctx: FeatureContext;

  constructor(ctx: FeatureContext) {
    super(null);
    this.ctx = ctx;
    this.handlers = {
      ...handlersOf(analysisReducers, (reduce) => this.update(reduce)),
      analysis_done: (msg: ServerMessageOf<'analysis_done'>, at: number) => {
        this.update((view) => analysisReducers.analysis_done!(view, msg, at));
        this.finished(msg.analysis);
      },
    };
  }

  welcomed(): void {
    if (this.running !== null) this.finished(this.running);
    const view = this.getState();
    if (view && analysisActive(view)) this.analyse(view.fen, view.multipv);
  }

  reset(): void {
    this.set(null);
  }

  /**
   * Analyses a position (FEN) with `multipv` lines, in place of the analysis shown. A running
   * one is stopped first and its end awaited.
   */
  analyse(fen: string, multipv = 1): void {
    const seq = ++this.seq;
    this.set(analysisAsked(seq, fen, multipv));
    this.queue = this.queue.then(() => this.start(seq, fen, multipv));
  }

  /** Stops the analysis shown (its last lines stay shown); `forget` also drops them. */
  stop(forget = false): void {
    this.seq++;
    const view = this.getState();
    if (forget) this.set(null);
    else if (view?.status === 'starting') this.set({ ...view, status: 'stopped' });
    this.queue = this.queue.then(() => this.endRunning());
  }

  private async start(seq: number, fen: string, multipv: number): Promise<void> {
    await this.endRunning();
    if (seq !== this.seq) return;
    const current = () => {
      const view = this.getState();
      return seq === this.seq && view?.seq === seq ? view : null;
    };
    try {
      const reply = await this.ctx.request({ type: 'analyse', fen, multipv });
      if (reply.type !== 'analysis_started') return;
      // Superseded meanwhile: the step queued after this one stops it.
      this.running = reply.analysis;
      const view = current();
      if (view) this.set(analysisStarted(view, reply.analysis));
    } catch (err) {
      const code = (err as { code?: string }).code;
      if (code === 'CONNECTION_LOST' || code === 'OFFLINE') return; // the next welcome starts it again
      const view = current();
      if (view) this.set({ ...view, status: 'error', error: readableError(err) });
    }
  }

  /**
   * Stops the server's running analysis, if any, and resolves once it has ended (its
   * analysis_done, which frees its slot on the server), or after ENDED_WAIT_MS without it: the
   * panel never waits for good on a message that does not come.
   */
  private async endRunning(): Promise<void> {
    const id = this.running;
    if (id === null) return;
    const ended = new Promise<void>((resolve) => (this.ended = resolve));
    try {
      await this.ctx.request({ type: 'analysis_stop', analysis: id });
    } catch {
      // ANALYSIS_NOT_FOUND: it ended by itself meanwhile; a lost connection ended it too.
      this.finished(id);
    }
    let timer: ReturnType<typeof setTimeout> | undefined;
    const late = new Promise<void>((resolve) => (timer = setTimeout(resolve, ENDED_WAIT_MS)));
    await Promise.race([ended, late]);
    clearTimeout(timer);
    this.finished(id);
  }

  private finished(id: number): void {
    if (this.running !== id) return;
    this.running = null;
    const resolve = this.ended;
    this.ended = null;
    resolve?.();
  }
}
