/*
 * What the tournament pages say of an arena, as pure functions: its time left to start or end
 * (counted from the server's Unix times against the wall clock), its status in words, a sheet
 * of results as lichess shows it, and which of the player's games the page should open.
 */
import type { ArenaStatus, ArenaSummary } from '../../net/protocol';

/** "1:02:03", "4:05", "0:09": a countdown of whole seconds. */
export function formatCountdown(ms: number): string {
  const total = Math.max(0, Math.ceil(ms / 1000));
  const h = Math.floor(total / 3600);
  const m = Math.floor((total % 3600) / 60);
  const s = String(total % 60).padStart(2, '0');
  return h > 0 ? `${h}:${String(m).padStart(2, '0')}:${s}` : `${m}:${s}`;
}

/** The arena's moment in words at `now` (Unix ms): "Starts in 4:05", "Ends in 51:10", "Finished". */
export function arenaTimeText(a: Pick<ArenaSummary, 'status' | 'starts' | 'ends'>, now: number): string {
  if (a.status === 'finished') return 'Finished';
  if (a.status === 'created') return a.starts > now ? `Starts in ${formatCountdown(a.starts - now)}` : 'Starting…';
  return a.ends > now ? `Ends in ${formatCountdown(a.ends - now)}` : 'Ending: the last games finish';
}

export const STATUS_WORDS: Record<ArenaStatus, string> = {
  created: 'not started',
  started: 'in progress',
  finished: 'finished',
};

/** One game of a sheet: its points, and whether it counted double or berserk's extra point. */
export interface SheetGame {
  points: number;
  /** A win worth more than 2: on fire (double) or berserk. */
  bonus: boolean;
}

/** The last `keep` games of a sheet, most recent first (as lichess lists them). */
export function sheetGames(sheet: readonly number[], keep = 20): SheetGame[] {
  return sheet
    .slice(-keep)
    .reverse()
    .map((points) => ({ points, bonus: points > 2 }));
}

/**
 * The game the page should open: the player's current game when it is a new one, i.e. not the
 * one it had when the page came (that one the player left to come here), nor one already opened.
 */
export function gameToOpen(current: string | undefined, seen: ReadonlySet<string>): string | null {
  return current && !seen.has(current) ? current : null;
}
