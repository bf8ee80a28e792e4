/*
 * The review's views, loaded when a finished game's page first shows the review (one chunk of their own: the initial
 * JavaScript carries only the state, the controller and the move list's marks). Until loaded
 * they render nothing.
 */
import { lazy, Suspense, type ComponentProps } from 'react';

const views = () => import('./views');
const LazyGraph = lazy(() => views().then((m) => ({ default: m.EvalGraph })));
const LazyPanel = lazy(() => views().then((m) => ({ default: m.ReviewPanel })));

export function EvalGraph(props: ComponentProps<typeof LazyGraph>) {
  return (
    <Suspense fallback={null}>
      <LazyGraph {...props} />
    </Suspense>
  );
}

export function ReviewPanel(props: ComponentProps<typeof LazyPanel>) {
  return (
    <Suspense fallback={null}>
      <LazyPanel {...props} />
    </Suspense>
  );
}
