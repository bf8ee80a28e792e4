/* The rating history chart's geometry and description. */
import { describe, expect, it } from 'vitest';
import { describeChart, ratingChart } from './ratingChart';

describe('ratingChart', () => {
  it('has nothing to draw without points', () => {
    expect(ratingChart({}, 100, 50)).toBeNull();
    expect(ratingChart({ blitz: [] }, 100, 50)).toBeNull();
  });

  it('scales every category into one box, oldest left, higher ratings up', () => {
    const chart = ratingChart(
      {
        blitz: [
          [1000, 1500],
          [2000, 1600],
        ],
        bullet: [[3000, 1400]],
      },
      300,
      100,
    )!;
    expect(chart.from).toBe(1000);
    expect(chart.to).toBe(3000);
    expect(chart.minRating).toBe(1380); // 1400 less 10% of the 200 range, at least 20
    expect(chart.maxRating).toBe(1620);
    const [bullet, blitz] = chart.lines;
    expect(bullet.category).toBe('bullet');
    expect(blitz.points).toBe('0.0,50.0 150.0,8.3');
    expect(bullet.points).toBe('300.0,91.7');
    expect(describeChart(chart)).toBe(
      'Bullet: 1400 to 1400 over 1 rated game; Blitz: 1500 to 1600 over 2 rated games',
    );
  });

  it('puts a single instant in the middle', () => {
    const chart = ratingChart({ rapid: [[5, 1500]] }, 200, 100)!;
    expect(chart.lines[0].points).toBe('100.0,50.0');
  });
});
