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
  // A line of an earlier position (the engine has not reported on the new one yet) keeps the bar
  // but not its moves: they would start with a move that was not played.
  const current = line.ply === game.ply;
  return (
    <section className="engine-line" aria-label="The computer's evaluation">
      <EvalBar line={line} />
      {current ? <EvalLine line={line} fen={game.fens[line.ply] ?? game.fen} /> : <p className="engine-pv">…</p>}
    </section>
  );
}
