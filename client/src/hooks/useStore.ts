/*
 * React access to the app store (connection, player, notices): the store itself (from context)
 * and a selected slice of its state that re-renders the component when the slice changes.
 * Features read their own state through their own hooks (features/<name>/hooks.ts).
 */
import { createContext, useContext } from 'react';
import type { AppState, AppStore } from '../app/store';
import { useSelect } from './useSelect';

export const StoreContext = createContext<AppStore | null>(null);

export function useAppStore(): AppStore {
  const store = useContext(StoreContext);
  if (!store) throw new Error('useAppStore outside StoreContext');
  return store;
}

/** A slice of the app's state; the selector must return a value that stays the same object
 * while its inputs do (a field of the state, not a new object). */
export function useAppState<T>(select: (state: AppState) => T): T {
  return useSelect(useAppStore(), select);
}
