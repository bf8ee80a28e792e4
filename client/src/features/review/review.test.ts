import { describe, expect, it } from 'vitest';
import { SCHOLAR, SCHOLAR_RUNNING } from './fixtures';
import { countJudgements, judgedMove, judgementsByPly, moverOf, nextJudged, positionsByPly, reviewKey } from './review';
import type { GameAnalysis } from '../../net/protocol';

/** SCHOLAR with more judged moves: 2. Qh5 an inaccuracy (White), 2... Nc6 a mistake (Black). */
const MORE: GameAnalysis = {
  ...SCHOLAR,
  plies: SCHOLAR.plies.map((p) =>
    p.ply === 3 ? { ...p, judgement: 'inaccuracy', better: 'Nf3' } : p.ply === 4 ? { ...p, judgement: 'mistake', better: 'Nf6' } : p,
  ),
};

describe('review', () => {
  it('says a judged move in words, with the line from the position before and the better move as an arrow', () => {
    expect(judgedMove(SCHOLAR, 6)).toEqual({
      ply: 6,
      judgement: 'blunder',
      text: 'Blunder. g6 was best.',
      line: SCHOLAR.plies[5].line,
      arrow: { from: 'g7', to: 'g6', san: 'g6' },
    });
    expect(judgedMove(SCHOLAR, 5)).toBeNull();
    expect(judgedMove(SCHOLAR, 0)).toBeNull();
    expect(judgedMove(MORE, 3)?.text).toBe('Inaccuracy. Nf3 was best.');
    // Without the position before (a running analysis), no arrow.
    const partial: GameAnalysis = { ...SCHOLAR, plies: SCHOLAR.plies.filter((p) => p.ply !== 5) };
    expect(judgedMove(partial, 6)).toMatchObject({ line: ['g6'], arrow: null });
  });

  it('indexes the positions and judgements by ply, even out of order or incomplete', () => {
    const shuffled: GameAnalysis = { ...SCHOLAR_RUNNING, plies: [SCHOLAR.plies[2], SCHOLAR.plies[0]] };
    const byPly = positionsByPly(shuffled);
    expect(byPly).toHaveLength(8);
    expect(byPly[0]?.cp).toBe(17);
    expect(byPly[1]).toBeUndefined();
    expect(byPly[2]?.cp).toBe(7);
    expect(judgementsByPly(SCHOLAR)).toEqual([undefined, undefined, undefined, undefined, undefined, undefined, 'blunder', undefined]);
  });

  it('goes round the judged moves, all of them or one colour and one kind', () => {
    expect(nextJudged(MORE, 0)).toBe(3);
    expect(nextJudged(MORE, 3)).toBe(4);
    expect(nextJudged(MORE, 4)).toBe(6);
    expect(nextJudged(MORE, 6)).toBe(3); // round
    expect(nextJudged(MORE, 6, {}, -1)).toBe(4);
    expect(nextJudged(MORE, 3, {}, -1)).toBe(6); // round backwards
    expect(nextJudged(MORE, 0, { color: 'black' })).toBe(4);
    expect(nextJudged(MORE, 4, { color: 'black' })).toBe(6);
    expect(nextJudged(MORE, 0, { color: 'black', judgement: 'blunder' })).toBe(6);
    expect(nextJudged(MORE, 6, { color: 'black', judgement: 'blunder' })).toBe(6); // the only one
    expect(nextJudged(MORE, 0, { color: 'white', judgement: 'blunder' })).toBeNull();
    // A game that starts with Black to move: ply 1 is Black's.
    expect(nextJudged(MORE, 0, { color: 'white', first: 'black' })).toBe(4);
    expect(nextJudged(SCHOLAR_RUNNING, 0)).toBeNull();
  });

  it('names movers, counts and keys', () => {
    expect([moverOf(1), moverOf(2), moverOf(1, 'black'), moverOf(2, 'black')]).toEqual(['white', 'black', 'black', 'white']);
    expect([countJudgements(1, 'blunder'), countJudgements(0, 'inaccuracy'), countJudgements(2, 'mistake')]).toEqual([
      '1 blunder',
      '0 inaccuracies',
      '2 mistakes',
    ]);
    expect(reviewKey('n', MORE, 3)).toBe(4);
    expect(reviewKey('p', MORE, 3)).toBe(6);
    expect(reviewKey('x', MORE, 3)).toBeNull();
  });
});
