/*
 * React access to the store: the store itself (from context) and a selected slice of its state
 * that re-renders the component when the slice changes (useSyncExternalStore).
 */
import { createContext, useContext, useSyncExternalStore } from 'react';
import type { AppState } from '../app/state';
import type { Store } from '../app/store';

export const StoreContext = createContext<Store | null>(null);

export function useStoreApi(): Store {
  const store = useContext(StoreContext);
  if (!store) throw new Error('useStoreApi outside StoreContext');
  return store;
}

/** A slice of the state; the selector must return a value that stays the same object while
 * its inputs do (a field of the state, not a new object). */
export function useAppState<T>(select: (state: AppState) => T): T {
  const store = useStoreApi();
  return useSyncExternalStore(store.subscribe, () => select(store.getState()));
}
