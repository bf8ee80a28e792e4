/*
 * TV: the top live game (highest rated, tv.ts) shown as a spectator sees it; when it ends, the
 * next top game follows a few seconds later. The live games list is refreshed every 5 s.
 */
import { useEffect, useRef, useState } from 'react';
import { GamePage, useGameList } from '../game';
import { useWatch, useWatchState } from './hooks';
import { pickTop } from './tv';

/** How long the end of a game stays on screen before the next one. */
const NEXT_AFTER_MS = 3000;
const REFRESH_MS = 5000;

export function TvPage() {
  const watch = useWatch();
  const live = useWatchState((s) => s.liveGames);
  const games = useGameList();
  const [current, setCurrent] = useState<string | null>(null);
  const ended = useRef(new Set<string>());
  useEffect(() => {
    const release = watch.hold();
    const t = setInterval(() => watch.refresh(), REFRESH_MS);
    return () => {
      clearInterval(t);
      release();
    };
  }, [watch]);
  // The first game, and the next one once the shown one has ended.
  const shownEnded = current !== null && games[current]?.status === 'ended';
  useEffect(() => {
    if (current !== null && !shownEnded) return;
    const pick = () => {
      if (current) ended.current.add(current);
      const top = pickTop(live ?? [], ended.current);
      if (top && top.id !== current) setCurrent(top.id);
    };
    if (current === null) {
      pick();
      return;
    }
    const t = setTimeout(pick, NEXT_AFTER_MS);
    return () => clearTimeout(t);
  }, [current, shownEnded, live]);
  return (
    <section aria-labelledby="tv-title">
      <h1 id="tv-title" className="tv-title">
        TV <span className="hint">the top game being played now</span>
      </h1>
      {current ? (
        <GamePage key={current} id={current} />
      ) : (
        <p className="panel hint">{live === null ? 'Loading…' : 'No game is being played right now.'}</p>
      )}
    </section>
  );
}
