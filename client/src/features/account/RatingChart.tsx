/*
 * A player's rating after each rated game, one line per category (the profile's rating_history),
 * drawn as SVG; its accessible name says the same in words.
 */
import type { RatingHistory } from './ratingChart';
import { categoryLabel } from './categories';
import { describeChart, ratingChart } from './ratingChart';

const WIDTH = 600;
const HEIGHT = 160;

export function RatingChart({ history }: { history: RatingHistory }) {
  const chart = ratingChart(history, WIDTH, HEIGHT);
  if (!chart) return null;
  const date = (t: number) => new Date(t).toLocaleDateString();
  return (
    <figure className="rating-chart">
      <svg viewBox={`0 0 ${WIDTH} ${HEIGHT}`} role="img" aria-label={`Rating history: ${describeChart(chart)}`}>
        {chart.lines.map((l) =>
          l.games === 1 ? (
            <circle key={l.category} className={`rating-line ${l.category}`} cx={l.coords[0][0]} cy={l.coords[0][1]} r="4" />
          ) : (
            <polyline key={l.category} className={`rating-line ${l.category}`} points={l.points} fill="none" />
          ),
        )}
      </svg>
      <figcaption>
        <span>
          {chart.minRating}–{chart.maxRating}
        </span>
        <span>
          {date(chart.from)} – {date(chart.to)}
        </span>
        <span className="rating-legend">
          {chart.lines.map((l) => (
            <span key={l.category} className={`legend ${l.category}`}>
              {categoryLabel(l.category)}
            </span>
          ))}
        </span>
      </figcaption>
    </figure>
  );
}
