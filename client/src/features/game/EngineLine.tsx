/*
 * The computer's view of a game against it, for spectators: an evaluation bar (White's share),
 * the score, the depth and the principal variation with move numbers. The server sends these
 * lines to spectators only; the page shows them only to people not playing.
 */
import type { GameState } from '../../app/games';
import { describeScore, formatScore, numberedPv, whiteShare } from '../../lib/evaluation';

export function EngineLine({ game }: { game: GameState }) {
  const line = game.analysis;
  if (!line) return null;
  const share = whiteShare(line.score);
  const fen = game.fens[line.ply] ?? game.fen;
  const bound = line.bound === 'lower' ? ' (at least)' : line.bound === 'upper' ? ' (at most)' : '';
  return (
    <section className="engine-line" aria-label="The computer's evaluation">
      <div
        className="eval-bar"
        role="meter"
        aria-label="Evaluation"
        aria-valuemin={0}
        aria-valuemax={100}
        aria-valuenow={share}
        aria-valuetext={describeScore(line.score)}
      >
        <div className="eval-bar-white" style={{ width: `${share}%` }} />
      </div>
      <div className="engine-score">
        <strong>{formatScore(line.score)}</strong>
        {bound}
        <span className="engine-depth"> · depth {line.depth}</span>
      </div>
      {line.pv.length > 0 && <div className="engine-pv">{numberedPv(fen, line.pv)}</div>}
    </section>
  );
}
