/*
 * The moves in SAN, two per row, each a button that shows the position after it; buttons to go
 * to the start, back, forward and to the live position. The parent handles the arrow keys. In an
 * analysed game the judged moves carry their symbol (?!, ?, ??) in its colour, and say their
 * judgement in their name ("3... Nf6, blunder").
 */
import { Icon } from '../../components/Icon';
import { useCurrentInView } from '../../hooks/useCurrentInView';
import type { AnalysisJudgement } from '../../net/protocol';
import { JUDGEMENT_GLYPH } from '../review';

export function MoveList({
  san,
  viewPly,
  onView,
  marks = [],
}: {
  san: string[];
  /** The judgement of each ply's move (index: ply), from the computer analysis. */
  marks?: readonly (AnalysisJudgement | undefined)[];
  /** The ply shown on the board. */
  viewPly: number;
  onView: (ply: number) => void;
}) {
  const listRef = useCurrentInView<HTMLOListElement>([viewPly, san.length]);
  const rows: { number: number; white?: number; black?: number }[] = [];
  for (let i = 0; i < san.length; i += 2) rows.push({ number: i / 2 + 1, white: i + 1, black: i + 2 <= san.length ? i + 2 : undefined });
  const last = san.length;
  const moveButton = (ply: number | undefined) => {
    if (ply === undefined) return <span className="move empty" />;
    const mark = marks[ply];
    return (
      <button
        type="button"
        className="move"
        aria-current={ply === viewPly ? 'true' : undefined}
        aria-label={`${Math.ceil(ply / 2)}${ply % 2 ? '.' : '...'} ${san[ply - 1]}${mark ? `, ${mark}` : ''}`}
        onClick={() => onView(ply)}
      >
        {san[ply - 1]}
        {mark && <span className={`glyph ${mark}`}>{JUDGEMENT_GLYPH[mark]}</span>}
      </button>
    );
  };
  return (
    <div className="moves-panel">
      <div className="history-nav" role="toolbar" aria-label="Move history">
        <button type="button" aria-label="First position" disabled={viewPly === 0} onClick={() => onView(0)}>
          <Icon name="first" />
        </button>
        <button type="button" aria-label="Previous move" disabled={viewPly === 0} onClick={() => onView(viewPly - 1)}>
          <Icon name="prev" />
        </button>
        <button type="button" aria-label="Next move" disabled={viewPly >= last} onClick={() => onView(viewPly + 1)}>
          <Icon name="next" />
        </button>
        <button type="button" aria-label="Last move" disabled={viewPly >= last} onClick={() => onView(last)}>
          <Icon name="last" />
        </button>
      </div>
      <ol className="move-list" ref={listRef} aria-label="Moves">
        {rows.map((r) => (
          <li key={r.number}>
            <span className="move-number" aria-hidden="true">
              {r.number}.
            </span>
            {moveButton(r.white)}
            {moveButton(r.black)}
          </li>
        ))}
        {rows.length === 0 && <li className="hint">No moves yet.</li>}
      </ol>
    </div>
  );
}
