/*
 * TV (as lichess's /tv): which live game to show. Pure.
 */
import type { GameSummary, PlayerRef } from '../../net/protocol';

/** A player's rating for ranking games: an account's, else 1500 (guests, the computer). */
function ratingOf(p: PlayerRef): number {
  return typeof p.rating === 'number' ? p.rating : 1500;
}

/**
 * The top game among the live ones (highest average rating; on a tie, the newest, as the list
 * comes newest first), leaving out the games in skip (those seen to end). Null when none is left.
 */
export function pickTop(games: readonly GameSummary[], skip: ReadonlySet<string> = new Set()): GameSummary | null {
  let best: GameSummary | null = null;
  let bestScore = -Infinity;
  for (const g of games) {
    if (skip.has(g.id)) continue;
    const score = (ratingOf(g.white) + ratingOf(g.black)) / 2;
    if (score > bestScore) {
      best = g;
      bestScore = score;
    }
  }
  return best;
}
