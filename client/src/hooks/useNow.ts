/*
 * A ticking clock for displays: performance.now() refreshed every `intervalMs` while `active`.
 */
import { useEffect, useState } from 'react';

export function useNow(intervalMs: number, active = true): number {
  const [now, setNow] = useState(() => performance.now());
  useEffect(() => {
    if (!active) return;
    setNow(performance.now());
    const timer = setInterval(() => setNow(performance.now()), intervalMs);
    return () => clearInterval(timer);
  }, [intervalMs, active]);
  return now;
}
