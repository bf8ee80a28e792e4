import { describe, expect, it } from 'vitest';
import { categoryLabel, profileCategories, RATING_CATEGORIES } from './categories';

describe('rating categories', () => {
  it('lists the server categories once each, with readable names', () => {
    expect(new Set(RATING_CATEGORIES).size).toBe(8);
    expect(categoryLabel('kingOfTheHill')).toBe('King of the Hill');
    expect(categoryLabel('threeCheck')).toBe('Three-check');
  });

  it('shows the speeds always and the variants once played', () => {
    expect(profileCategories({})).toEqual(['bullet', 'blitz', 'rapid', 'classical']);
    expect(profileCategories({ chess960: { games: 2 }, threeCheck: { games: 0 } })).toEqual([
      'bullet',
      'blitz',
      'rapid',
      'classical',
      'chess960',
    ]);
  });
});
