/*
 * One engine line for people: an evaluation bar (White's share; optional), the score with its
 * depth, and the principal variation with move numbers from the position searched. Used for
 * the computer's line shown to spectators and for the free analysis.
 */
import { describeScore, formatScore, numberedPv, whiteShare } from '../lib/evaluation';
import type { SearchLine } from '../net/protocol';

export function EvalBar({ line }: { line: SearchLine }) {
  const share = whiteShare(line.score);
  return (
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
  );
}

export function EvalLine({ line, fen }: { line: SearchLine; fen: string }) {
  const bound = line.bound === 'lower' ? ' (at least)' : line.bound === 'upper' ? ' (at most)' : '';
  return (
    <>
      <div className="engine-score">
        <strong>{formatScore(line.score)}</strong>
        {bound}
        <span className="engine-depth"> · depth {line.depth}</span>
      </div>
      {line.pv.length > 0 && <div className="engine-pv">{numberedPv(fen, line.pv)}</div>}
    </>
  );
}
