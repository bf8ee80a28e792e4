/*
 * A small client-side router over the History API: the current path as React state, navigate()
 * to change it, and <Link> for in-app anchors. The server answers every client route with
 * index.html, so deep links (/game/<id>, /challenge/<id>, /tournament/<id>) work on reload.
 */
import { useSyncExternalStore, type AnchorHTMLAttributes, type MouseEvent } from 'react';

const CHANGE = 'chess:navigate';

function subscribe(onChange: () => void): () => void {
  window.addEventListener('popstate', onChange);
  window.addEventListener(CHANGE, onChange);
  return () => {
    window.removeEventListener('popstate', onChange);
    window.removeEventListener(CHANGE, onChange);
  };
}

export function usePath(): string {
  return useSyncExternalStore(subscribe, () => window.location.pathname);
}

export function navigate(path: string, replace = false): void {
  if (path === window.location.pathname) return;
  if (replace) window.history.replaceState(null, '', path);
  else window.history.pushState(null, '', path);
  window.dispatchEvent(new Event(CHANGE));
}

export type Route =
  | { page: 'lobby' }
  | { page: 'game'; id: string }
  | { page: 'challenge'; id: string }
  | { page: 'account' }
  | { page: 'settings' }
  | { page: 'bots' }
  | { page: 'analysis' }
  | { page: 'editor' }
  | { page: 'tv' }
  | { page: 'mod' }
  | { page: 'player'; id: string }
  | { page: 'tournaments' }
  | { page: 'tournament'; id: string }
  | { page: 'not_found' };

/** The page for a path. */
export function matchRoute(path: string): Route {
  const clean = path.replace(/\/+$/, '') || '/';
  if (clean === '/') return { page: 'lobby' };
  if (clean === '/account') return { page: 'account' };
  if (clean === '/settings') return { page: 'settings' };
  if (clean === '/bots') return { page: 'bots' };
  if (clean === '/analysis') return { page: 'analysis' };
  if (clean === '/editor') return { page: 'editor' };
  if (clean === '/tv') return { page: 'tv' };
  if (clean === '/mod') return { page: 'mod' };
  if (clean === '/tournaments') return { page: 'tournaments' };
  let m = clean.match(/^\/game\/([A-Za-z0-9]{1,16})$/);
  if (m) return { page: 'game', id: m[1] };
  m = clean.match(/^\/challenge\/([A-Za-z0-9]{1,16})$/);
  if (m) return { page: 'challenge', id: m[1] };
  m = clean.match(/^\/player\/([A-Za-z0-9]{1,16})$/);
  if (m) return { page: 'player', id: m[1] };
  m = clean.match(/^\/tournament\/([A-Za-z0-9]{1,16})$/);
  if (m) return { page: 'tournament', id: m[1] };
  return { page: 'not_found' };
}

export function Link({
  to,
  onClick,
  ...rest
}: AnchorHTMLAttributes<HTMLAnchorElement> & { to: string }) {
  const handle = (e: MouseEvent<HTMLAnchorElement>) => {
    onClick?.(e);
    if (e.defaultPrevented || e.button !== 0 || e.metaKey || e.ctrlKey || e.shiftKey) return;
    e.preventDefault();
    navigate(to);
  };
  return <a href={to} onClick={handle} {...rest} />;
}
