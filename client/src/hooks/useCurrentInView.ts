/*
 * A move list's current move (the element with aria-current="true") kept in view, scrolling
 * the list only (never the page). Measured in the next frame, with the layout the browser does
 * anyway, so a move is not delayed by it. The list must be positioned (offsets are within it).
 */
import { useEffect, useRef, type DependencyList, type RefObject } from 'react';

/** A ref for the list; it scrolls again whenever `deps` change. */
export function useCurrentInView<T extends HTMLElement>(deps: DependencyList): RefObject<T | null> {
  const listRef = useRef<T>(null);
  useEffect(() => {
    const frame = requestAnimationFrame(() => {
      const list = listRef.current;
      const current = list?.querySelector<HTMLElement>('[aria-current="true"]');
      if (!list || !current) return;
      const top = current.offsetTop;
      const bottom = top + current.offsetHeight;
      if (top < list.scrollTop) list.scrollTop = top;
      else if (bottom > list.scrollTop + list.clientHeight) list.scrollTop = bottom - list.clientHeight;
    });
    return () => cancelAnimationFrame(frame);
    // The caller's deps say when the current move may have changed.
  }, deps); // eslint-disable-line react-hooks/exhaustive-deps
  return listRef;
}
