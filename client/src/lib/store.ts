/*
 * A small observable state holder: the app store and every feature controller keep their state
 * in one, replace it as a whole (never mutate it) and tell their listeners. React reads one with
 * useSyncExternalStore (hooks/useSelect.ts); controllers of pages subscribe to the ones they
 * derive from.
 */

/** Something whose state can be read and watched. */
export interface Readable<S> {
  getState(): S;
  /** Calls `listener` after every change; returns the unsubscribe function. */
  subscribe(listener: () => void): () => void;
}

export class Store<S> implements Readable<S> {
  private state: S;
  private readonly listeners = new Set<() => void>();

  constructor(initial: S) {
    this.state = initial;
  }

  getState = (): S => this.state;

  subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => {
      this.listeners.delete(listener);
    };
  };

  /** Replaces the state and tells the listeners; the same object changes nothing. */
  protected set(next: S): void {
    if (next === this.state) return;
    this.state = next;
    for (const l of [...this.listeners]) l();
  }

  /** Replaces the state with `change(state)`. */
  protected update(change: (state: S) => S): void {
    this.set(change(this.state));
  }
}
