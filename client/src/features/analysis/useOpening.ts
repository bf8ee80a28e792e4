/*
 * The opening of a line as the server names it (opening_lookup, docs/openings.md), for a view:
 * asked once the line has stayed `debounceMs`, again after a reconnect, answers remembered by
 * line (opening.ts).
 */
import { useEffect, useMemo, useState } from 'react';
import { useAppState, useAppStore } from '../../hooks/useStore';
import { OpeningLookup, noOpening, openingLine, openingLineKey, type OpeningView } from './opening';

export interface UseOpeningOptions {
  /** The line is a game's: named only from the standard start (the server names no game from a
   * FEN), by its first moves. */
  game?: boolean;
  debounceMs?: number;
}

export function useOpening(startFen: string | undefined, moves: readonly string[], options: UseOpeningOptions = {}): OpeningView {
  const { game = false, debounceMs = 250 } = options;
  const store = useAppStore();
  const online = useAppState((s) => s.conn.status === 'online');
  const [view, setView] = useState<OpeningView>(noOpening);
  const lookup = useMemo(
    () =>
      new OpeningLookup(
        async (line) => {
          const reply = await store.context.request({ type: 'opening_lookup', ...line });
          return reply.type === 'opening' ? reply.opening : null;
        },
        setView,
        { debounceMs },
      ),
    [store, debounceMs],
  );
  useEffect(() => () => lookup.dispose(), [lookup]);
  const line = openingLine(startFen, moves, game);
  const key = line ? openingLineKey(line) : null;
  useEffect(() => {
    if (online) lookup.lookup(line);
    // The key stands for the line, which is a new object at every render.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [lookup, key, online]);
  return view;
}
