/*
 * The computer analysis in a finished game's side panel. Before there is one: the button to ask
 * for it and the server's refusal, if any; while it runs: a progress bar. Once done: what the
 * engine says of the ply shown (at a judged move "Blunder. g6 was best." and the line from the
 * position before it; elsewhere the evaluation and the best line), buttons to the previous and
 * next judged move (keys p and n), and the accuracy panel: each side's accuracy, average
 * centipawn loss and counts, the counts going round that side's inaccuracies, mistakes or
 * blunders (as lichess's).
 */
import { formatScore, numberedPv } from '../../lib/evaluation';
import type { AnalysisJudgement, AnalysisSide, Color, GameAnalysis } from '../../net/protocol';
import { countJudgements, judgedMove, JUDGEMENTS, nextJudged, positionsByPly } from './review';
import type { GameReview } from './state';

/** How many moves of an engine line are shown. */
const LINE_MOVES = 8;

export interface ReviewPanelProps {
  review: GameReview | undefined;
  /** The ply shown on the board. */
  ply: number;
  /** The positions after each ply (fens[0]: the start), to number the engine's lines. */
  fens: readonly string[];
  names: Record<Color, string>;
  onView: (ply: number) => void;
  onRequest: () => void;
}

export function ReviewPanel({ review, ply, fens, names, onView, onRequest }: ReviewPanelProps) {
  if (!review || review.status === 'loading' || review.status === 'unavailable') return null;
  const { status, analysis, error } = review;
  if ((status === 'done' || status === 'running') && analysis) {
    return (
      <section className="review" aria-label="Computer analysis">
        {status === 'running' ? <Progress analysis={analysis} /> : <Done analysis={analysis} ply={ply} fens={fens} names={names} onView={onView} />}
      </section>
    );
  }
  return (
    <section className="review" aria-label="Computer analysis">
      {error && <p role="alert">{error}</p>}
      <button type="button" className="primary" disabled={status === 'asking'} onClick={onRequest}>
        Request a computer analysis
      </button>
    </section>
  );
}

function Progress({ analysis }: { analysis: GameAnalysis }) {
  const { searched, positions } = analysis;
  const text = `Analysing… ${searched} / ${positions} positions`;
  return (
    <>
      <p className="review-progress-text">{text}</p>
      <div
        className="review-progress"
        role="progressbar"
        aria-label="Computer analysis"
        aria-valuemin={0}
        aria-valuemax={positions}
        aria-valuenow={searched}
        aria-valuetext={text}
      >
        <div style={{ width: `${positions > 0 ? (100 * searched) / positions : 0}%` }} />
      </div>
    </>
  );
}

function Done({ analysis, ply, fens, names, onView }: Omit<ReviewPanelProps, 'review' | 'onRequest'> & { analysis: GameAnalysis }) {
  const first: Color = fens[0]?.split(' ')[1] === 'b' ? 'black' : 'white';
  const go = (step: 1 | -1) => {
    const target = nextJudged(analysis, ply, { first }, step);
    if (target !== null) onView(target);
  };
  const none = nextJudged(analysis, ply) === null;
  return (
    <>
      <Comment analysis={analysis} ply={ply} fens={fens} />
      <div className="button-row">
        <button type="button" disabled={none} aria-keyshortcuts="p" onClick={() => go(-1)}>
          Previous mistake
        </button>
        <button type="button" disabled={none} aria-keyshortcuts="n" onClick={() => go(1)}>
          Next mistake
        </button>
      </div>
      {analysis.accuracy && (
        <div className="review-sides">
          {(['white', 'black'] as const).map((color) => {
            const side = analysis.accuracy?.[color];
            if (!side) return null;
            const next = (judgement: AnalysisJudgement) => {
              const target = nextJudged(analysis, ply, { color, judgement, first });
              if (target !== null) onView(target);
            };
            return <Side key={color} color={color} name={names[color]} side={side} onNext={next} />;
          })}
        </div>
      )}
    </>
  );
}

const COUNT: Record<AnalysisJudgement, 'inaccuracies' | 'mistakes' | 'blunders'> = {
  inaccuracy: 'inaccuracies',
  mistake: 'mistakes',
  blunder: 'blunders',
};

function Side({ color, name, side, onNext }: { color: Color; name: string; side: AnalysisSide; onNext: (j: AnalysisJudgement) => void }) {
  const label = `${color === 'white' ? 'White' : 'Black'}: ${name}`;
  return (
    <div className="review-side" role="group" aria-label={label}>
      <div className="review-side-name">
        <span className={`review-color ${color}`} aria-hidden="true" /> {name}
      </div>
      <ul>
        {JUDGEMENTS.map((j) => {
          const n = side[COUNT[j]];
          const text = countJudgements(n, j);
          return (
            <li key={j}>
              {n > 0 ? (
                <button type="button" className={`review-count ${j}`} title={`Go to the next ${j} of ${name}`} onClick={() => onNext(j)}>
                  {text}
                </button>
              ) : (
                text
              )}
            </li>
          );
        })}
        <li>{side.acpl} average centipawn loss</li>
        <li>
          <strong>{Math.round(side.accuracy)}%</strong> accuracy
        </li>
      </ul>
    </div>
  );
}

/** What the engine says of the ply shown. */
function Comment({ analysis, ply, fens }: { analysis: GameAnalysis; ply: number; fens: readonly string[] }) {
  const judged = judgedMove(analysis, ply);
  if (judged) {
    return (
      <div className={`review-comment ${judged.judgement}`}>
        <p>
          <strong>{judged.text}</strong>
        </p>
        {judged.line.length > 0 && fens[ply - 1] && (
          <p className="engine-pv">Best line: {numberedPv(fens[ply - 1], judged.line.slice(0, LINE_MOVES))}</p>
        )}
      </div>
    );
  }
  const here = positionsByPly(analysis)[ply];
  if (!here) return null;
  const score = here.mate !== undefined ? formatScore({ mate: here.mate }) : here.cp !== undefined ? formatScore({ cp: here.cp }) : null;
  return (
    <div className="review-comment">
      <p>
        {score === null ? 'The game is over here.' : <>Evaluation <strong>{score}</strong>{here.depth ? ` · depth ${here.depth}` : ''}</>}
      </p>
      {here.line && here.line.length > 0 && fens[ply] && (
        <p className="engine-pv">Best line: {numberedPv(fens[ply], here.line.slice(0, LINE_MOVES))}</p>
      )}
    </div>
  );
}
