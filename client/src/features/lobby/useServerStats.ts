/*
 * Players online and games in play, from the server's /healthz (polled while shown): the
 * site's sums when the server is one node of several (docs/scaling.md), else its own.
 */
import { useEffect, useState } from 'react';

export interface ServerStats {
  players: number;
  games: number;
}

interface Health {
  players_online?: number;
  games?: number;
  site?: { players_online?: number; games?: number };
}

/** The figures a /healthz body gives, or null when it has none. */
export function statsFrom(body: Health): ServerStats | null {
  const source = body.site ?? body;
  if (typeof source.players_online !== 'number' || typeof source.games !== 'number') return null;
  return { players: source.players_online, games: source.games };
}

export function useServerStats(intervalMs = 10000): ServerStats | null {
  const [stats, setStats] = useState<ServerStats | null>(null);
  useEffect(() => {
    let stopped = false;
    const load = async () => {
      try {
        const r = await fetch('/healthz', { cache: 'no-store' });
        const stats = statsFrom((await r.json()) as Health);
        if (!stopped && stats) setStats(stats);
      } catch {
        /* shown as unknown until the next poll */
      }
    };
    void load();
    const t = setInterval(load, intervalMs);
    return () => {
      stopped = true;
      clearInterval(t);
    };
  }, [intervalMs]);
  return stats;
}
