/*
 * The rating history chart's geometry: each category's points (time, rating) scaled into one
 * box, with the rating range padded so a flat line sits mid-height. Pure, for the profile page's
 * RatingChart.
 */
import type { RatingCategory } from '../../net/protocol';
import { categoryLabel, RATING_CATEGORIES } from './categories';

export type RatingHistory = Partial<Record<RatingCategory, [number, number][]>>;

export interface ChartLine {
  category: RatingCategory;
  /** Each game's point in the box. */
  coords: [number, number][];
  /** "x,y x,y ..." for an SVG polyline. */
  points: string;
  first: number;
  last: number;
  games: number;
}

export interface Chart {
  lines: ChartLine[];
  minRating: number;
  maxRating: number;
  from: number;
  to: number;
}


/** The chart of a history in a width x height box; null when it has no points. */
export function ratingChart(history: RatingHistory, width: number, height: number): Chart | null {
  const series = RATING_CATEGORIES.flatMap((c) => (history[c]?.length ? [[c, history[c]!] as const] : []));
  const all = series.flatMap(([, pts]) => pts);
  if (all.length === 0) return null;
  const times = all.map(([t]) => t);
  const ratings = all.map(([, r]) => r);
  const from = Math.min(...times);
  const to = Math.max(...times);
  const pad = Math.max(20, (Math.max(...ratings) - Math.min(...ratings)) * 0.1);
  const minRating = Math.floor(Math.min(...ratings) - pad);
  const maxRating = Math.ceil(Math.max(...ratings) + pad);
  const x = (t: number) => (to === from ? width / 2 : ((t - from) / (to - from)) * width);
  const y = (r: number) => height - ((r - minRating) / (maxRating - minRating)) * height;
  const lines = series.map(([category, pts]) => {
    const coords = pts.map(([t, r]): [number, number] => [x(t), y(r)]);
    return {
      category,
      coords,
      points: coords.map(([cx, cy]) => `${cx.toFixed(1)},${cy.toFixed(1)}`).join(' '),
    first: pts[0][1],
    last: pts[pts.length - 1][1],
      games: pts.length,
    };
  });
  return { lines, minRating, maxRating, from, to };
}

/** What the chart shows, in words (its accessible name). */
export function describeChart(chart: Chart): string {
  return chart.lines
    .map((l) => `${categoryLabel(l.category)}: ${l.first} to ${l.last} over ${l.games} rated ${l.games === 1 ? 'game' : 'games'}`)
    .join('; ');
}
