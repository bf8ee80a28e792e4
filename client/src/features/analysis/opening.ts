/*
 * Opening names (docs/openings.md): which line to ask the server about (opening_lookup), and a
 * small lookup that waits for the line to settle (a debounce while moves are played or browsed),
 * remembers answers by line (going back and forth costs nothing) and drops answers to lines the
 * page has left. Pure: the request and the timers come in, so tests drive them.
 */
import type { Opening } from '../../net/protocol';

export const START_FEN = 'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1';

/** The table's longest entry is 36 plies: a game's moves past this many do not change its name
 * (short of a transposition back into it, which is rare enough to leave). */
export const GAME_OPENING_MAX_PLIES = 40;

/** "B90 Sicilian: Najdorf". */
export function openingLabel(opening: Opening): string {
  return `${opening.eco} ${opening.name}`;
}

/** A line to look up: a start (undefined: the standard start) and moves (UCI or SAN). */
export interface OpeningLine {
  fen?: string;
  moves: string[];
}

/**
 * The line to ask about. A game (`game`) is named only when it started from the standard start
 * (the server names no game from a FEN) and only by its first GAME_OPENING_MAX_PLIES moves; a
 * line of the analysis board from any start. Null: nothing to ask.
 */
export function openingLine(startFen: string | undefined, moves: readonly string[], game = false): OpeningLine | null {
  const standard = !startFen || startFen === START_FEN;
  if (game && !standard) return null;
  const kept = game ? moves.slice(0, GAME_OPENING_MAX_PLIES) : [...moves];
  return standard ? { moves: kept } : { fen: startFen, moves: kept };
}

export function openingLineKey(line: OpeningLine): string {
  return `${line.fen ?? ''}|${line.moves.join(' ')}`;
}

/** What a page shows: the opening of the last line answered (null: none named), whether a newer
 * line is being asked about, and the error of the last one (a bad FEN or move). */
export interface OpeningView {
  opening: Opening | null;
  pending: boolean;
  error: string | null;
}

export const noOpening: OpeningView = { opening: null, pending: false, error: null };

export interface OpeningLookupOptions {
  /** How long a line must stay before it is asked about (ms). */
  debounceMs: number;
  /** Answers remembered (the oldest forgotten first). */
  cacheSize?: number;
  setTimer?: (fn: () => void, ms: number) => unknown;
  clearTimer?: (timer: unknown) => void;
}

export class OpeningLookup {
  private readonly cache = new Map<string, Opening | null>();
  private timer: unknown = null;
  private latest: string | null = null;
  private view: OpeningView = noOpening;
  private readonly setTimer: (fn: () => void, ms: number) => unknown;
  private readonly clearTimer: (timer: unknown) => void;

  constructor(
    private readonly ask: (line: OpeningLine) => Promise<Opening | null>,
    private readonly listener: (view: OpeningView) => void,
    private readonly options: OpeningLookupOptions,
  ) {
    this.setTimer = options.setTimer ?? ((fn, ms) => setTimeout(fn, ms));
    this.clearTimer = options.clearTimer ?? ((t) => clearTimeout(t as ReturnType<typeof setTimeout>));
  }

  /** Shows the opening of `line` (null: none), at once when it is known, else once asked. */
  lookup(line: OpeningLine | null): void {
    this.cancelTimer();
    if (!line) {
      this.latest = null;
      this.show(noOpening);
      return;
    }
    const key = openingLineKey(line);
    this.latest = key;
    if (this.cache.has(key)) {
      this.show({ opening: this.cache.get(key) ?? null, pending: false, error: null });
      return;
    }
    this.show({ ...this.view, pending: true });
    this.timer = this.setTimer(() => {
      this.timer = null;
      void this.fetch(key, line);
    }, this.options.debounceMs);
  }

  dispose(): void {
    this.cancelTimer();
    this.latest = null;
  }

  private async fetch(key: string, line: OpeningLine): Promise<void> {
    try {
      const opening = await this.ask(line);
      this.remember(key, opening);
      if (this.latest === key) this.show({ opening, pending: false, error: null });
    } catch (err) {
      if (this.latest !== key) return;
      const e = err as { code?: string; message?: string };
      // Offline: keep what is shown; the page asks again when the connection is back.
      if (e.code === 'OFFLINE' || e.code === 'CONNECTION_LOST') {
        this.show({ ...this.view, pending: false });
        return;
      }
      this.show({ opening: null, pending: false, error: e.message || e.code || 'error' });
    }
  }

  private remember(key: string, opening: Opening | null): void {
    this.cache.delete(key);
    this.cache.set(key, opening);
    const limit = this.options.cacheSize ?? 200;
    while (this.cache.size > limit) this.cache.delete(this.cache.keys().next().value as string);
  }

  private show(view: OpeningView): void {
    const v = this.view;
    if (v.opening === view.opening && v.pending === view.pending && v.error === view.error) return;
    this.view = view;
    this.listener(view);
  }

  private cancelTimer(): void {
    if (this.timer !== null) this.clearTimer(this.timer);
    this.timer = null;
  }
}
