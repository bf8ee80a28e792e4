/*
 * The computer's view of a game against it, for spectators: an evaluation bar (White's share),
 * the score, the depth and the principal variation with move numbers. The server sends these
 * lines to spectators only; the page shows them only to people not playing.
 */
import { EvalBar, EvalLine } from '../../components/EvalView';
import type { GameState } from './games';

export function EngineLine({ game }: { game: GameState }) {
  const line = game.analysis;
  if (!line) return null;
  return (
    <section className="engine-line" aria-label="The computer's evaluation">
      <EvalBar line={line} />
      <EvalLine line={{ ...line, pv: followedPv(line.pv, game.san.slice(line.ply, game.ply)) }} fen={game.fen} />
    </section>
  );
}

/**
 * A line of an earlier position (the engine has not reported on the new one yet), from the
 * current position: what remains of it once the moves played since are taken off its start, or
 * nothing when the game left it (a line must never start with a move that was not played).
 */
export function followedPv(pv: readonly string[], playedSince: readonly string[]): string[] {
  if (playedSince.length > pv.length) return [];
  for (let i = 0; i < playedSince.length; i++) if (pv[i] !== playedSince[i]) return [];
  return pv.slice(playedSince.length);
}
