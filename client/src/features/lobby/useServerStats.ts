/*
 * Players online and games in play, from the server's /healthz (polled while shown).
 */
import { useEffect, useState } from 'react';

export interface ServerStats {
  players: number;
  games: number;
}

export function useServerStats(intervalMs = 10000): ServerStats | null {
  const [stats, setStats] = useState<ServerStats | null>(null);
  useEffect(() => {
    let stopped = false;
    const load = async () => {
      try {
        const r = await fetch('/healthz', { cache: 'no-store' });
        const body = (await r.json()) as { players_online?: number; games?: number };
        if (!stopped && typeof body.players_online === 'number' && typeof body.games === 'number')
          setStats({ players: body.players_online, games: body.games });
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
