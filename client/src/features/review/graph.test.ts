import { describe, expect, it } from 'vitest';
import { SCHOLAR, SCHOLAR_RUNNING } from './fixtures';
import { GRAPH_HEIGHT, GRAPH_WIDTH, graphArea, graphLine, graphPoints, plyAt, plyX, winY } from './graph';

describe('evaluation graph geometry', () => {
  it('spreads the plies over the width and puts White’s 100% at the top, 50% in the middle', () => {
    expect(plyX(0, 8)).toBe(5);
    expect(plyX(7, 8)).toBe(GRAPH_WIDTH - 5);
    expect(plyX(0, 1)).toBe(GRAPH_WIDTH / 2);
    expect(winY(100)).toBe(5);
    expect(winY(0)).toBe(GRAPH_HEIGHT - 5);
    expect(winY(50)).toBe(GRAPH_HEIGHT / 2);
    expect(winY(130)).toBe(winY(100));
    expect(winY(-3)).toBe(winY(0));
  });

  it('makes one point per position searched, the judged ones marked', () => {
    const points = graphPoints(SCHOLAR);
    expect(points.map((p) => p.ply)).toEqual([0, 1, 2, 3, 4, 5, 6, 7]);
    expect(points.filter((p) => p.judgement).map((p) => [p.ply, p.judgement])).toEqual([[6, 'blunder']]);
    expect(points[6].y).toBeLessThan(points[5].y); // White's chances jump up after the blunder
    expect(graphPoints(SCHOLAR_RUNNING).map((p) => p.ply)).toEqual([0, 1, 2]);
  });

  it('draws the curve and White’s area down to the bottom edge', () => {
    const points = graphPoints(SCHOLAR_RUNNING);
    const line = graphLine(points);
    expect(line).toMatch(/^M5,\d+(\.\d)? L\d+(\.\d)?,\d+(\.\d)? L\d+(\.\d)?,\d+(\.\d)?$/);
    const [y0, y2] = [points[0].y, points[2].y].map((y) => Math.round(y * 10) / 10);
    expect(graphArea(points)).toBe(
      `M0,${GRAPH_HEIGHT} L0,${y0} ${line.replace(/^M/, 'L')} L${GRAPH_WIDTH},${y2} L${GRAPH_WIDTH},${GRAPH_HEIGHT} Z`,
    );
    expect(graphLine([])).toBe('');
    expect(graphArea([])).toBe('');
  });

  it('finds the ply nearest to a click', () => {
    expect(plyAt(0, 8)).toBe(0);
    expect(plyAt(1, 8)).toBe(7);
    expect(plyAt(plyX(6, 8) / GRAPH_WIDTH, 8)).toBe(6);
    expect(plyAt((plyX(6, 8) + 20) / GRAPH_WIDTH, 8)).toBe(6);
    expect(plyAt(-0.2, 8)).toBe(0);
    expect(plyAt(1.5, 8)).toBe(7);
    expect(plyAt(0.7, 1)).toBe(0);
  });
});
