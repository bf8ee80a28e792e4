/*
 * React access to controllers: a selected slice of a store's state that re-renders the
 * component when the slice changes (useSyncExternalStore), and a context per controller so that
 * views find the one the app created.
 */
import { createContext, useContext, useSyncExternalStore, type Provider } from 'react';
import type { Readable } from '../lib/store';

/** A slice of a store's state; the selector must return a value that stays the same object
 * while its inputs do (a field of the state, not a new object). */
export function useSelect<S, T>(store: Readable<S>, select: (state: S) => T): T {
  return useSyncExternalStore(store.subscribe, () => select(store.getState()));
}

export interface ControllerContext<C> {
  Provider: Provider<C | null>;
  /** The controller provided above; throws outside its provider. */
  use(): C;
}

/** A context for one controller; `name` appears in the error when it is missing. */
export function controllerContext<C>(name: string): ControllerContext<C> {
  const Context = createContext<C | null>(null);
  return {
    Provider: Context.Provider,
    use() {
      const c = useContext(Context);
      if (!c) throw new Error(`${name} used outside its provider`);
      return c;
    },
  };
}
