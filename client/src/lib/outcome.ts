/*
 * How a game ended, in words: "Black wins by checkmate", "Draw by agreement", "Game aborted".
 */
import type { Color, GameResult, Termination } from '../net/protocol';

export interface OutcomeText {
  /** The headline: who won, or draw, or aborted. */
  title: string;
  /** Why. */
  detail: string;
  /** "1-0", "0-1", "½-½" or "*". */
  score: string;
}

const NAME: Record<Color, string> = { white: 'White', black: 'Black' };

/** `reason` may be null for games whose record does not say (imported PGN, say). */
export function describeOutcome(
  result: GameResult,
  reason: Termination | null,
  winner: Color | null,
): OutcomeText {
  const score = result === '1/2-1/2' ? '½-½' : result;
  const won = winner ? `${NAME[winner]} wins` : null;
  const loser = winner ? NAME[winner === 'white' ? 'black' : 'white'] : null;
  const draw = (detail: string) => ({ title: 'Draw', detail, score });
  switch (reason) {
    case 'checkmate':
      return { title: won ?? 'Checkmate', detail: 'Checkmate', score };
    case 'resignation':
      return { title: won ?? 'Resignation', detail: `${loser} resigned`, score };
    case 'timeout':
      return winner
        ? { title: won!, detail: `${loser} ran out of time`, score }
        : draw('Time ran out');
    case 'timeout_vs_insufficient_material':
    case 'timeout_vs_insufficient':
      return draw('Time ran out, but the other side cannot checkmate');
    case 'abandoned':
      return winner ? { title: won!, detail: `${loser} left the game`, score } : draw('A player left the game');
    case 'stalemate':
      return draw('Stalemate');
    case 'threefold_repetition':
      return draw('Threefold repetition');
    case 'fivefold_repetition':
      return draw('Fivefold repetition');
    case 'fifty_moves':
      return draw('Fifty-move rule');
    case 'seventy_five_moves':
      return draw('Seventy-five-move rule');
    case 'insufficient_material':
      return draw('Insufficient material');
    case 'agreement':
      return draw('By agreement');
    case 'aborted':
      return { title: 'Game aborted', detail: 'No result', score: '*' };
    case 'three_check':
      return { title: won ?? 'Three checks', detail: `${winner ? NAME[winner] : 'A side'} gave the third check`, score };
    case 'king_of_the_hill':
      return { title: won ?? 'King of the Hill', detail: `${winner ? NAME[winner] : 'A'} king reached the centre`, score };
    default:
      return {
        title: won ?? (result === '1/2-1/2' ? 'Draw' : 'Game over'),
        detail: reason ? String(reason).replace(/_/g, ' ') : '',
        score,
      };
  }
}
