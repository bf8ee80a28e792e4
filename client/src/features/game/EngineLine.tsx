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
      <EvalLine line={line} fen={game.fens[line.ply] ?? game.fen} />
    </section>
  );
}
