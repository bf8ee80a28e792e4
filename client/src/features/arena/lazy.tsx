/*
 * The tournament pages, loaded when first shown (a chunk of their own: the initial JavaScript
 * carries only the arena feature's state and controller). Until loaded they say so.
 */
import { lazy, Suspense, type ComponentProps } from 'react';

const views = () => import('./views');
const LazyList = lazy(() => views().then((m) => ({ default: m.TournamentsPage })));
const LazyArena = lazy(() => views().then((m) => ({ default: m.TournamentPage })));

const loading = <p className="hint">Loading…</p>;

export function TournamentsPage() {
  return (
    <Suspense fallback={loading}>
      <LazyList />
    </Suspense>
  );
}

export function TournamentPage(props: ComponentProps<typeof LazyArena>) {
  return (
    <Suspense fallback={loading}>
      <LazyArena {...props} />
    </Suspense>
  );
}
