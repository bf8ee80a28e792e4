/*
 * The rating categories the server keeps (lichess's perfs), in the server's order, with the
 * names people read. Standard chess by speed and correspondence, then each variant.
 */
import type { RatingCategory } from '../../net/protocol';

export const RATING_CATEGORIES: RatingCategory[] = [
  'bullet',
  'blitz',
  'rapid',
  'classical',
  'correspondence',
  'chess960',
  'kingOfTheHill',
  'threeCheck',
];

/** The speeds of standard chess: a profile shows them even before a game is played in them. */
export const SPEED_CATEGORIES: RatingCategory[] = ['bullet', 'blitz', 'rapid', 'classical'];

const LABELS: Record<RatingCategory, string> = {
  bullet: 'Bullet',
  blitz: 'Blitz',
  rapid: 'Rapid',
  classical: 'Classical',
  correspondence: 'Correspondence',
  chess960: 'Chess960',
  kingOfTheHill: 'King of the Hill',
  threeCheck: 'Three-check',
};

export function categoryLabel(category: RatingCategory): string {
  return LABELS[category];
}

/** The categories a profile lists: the four speeds, and any other the player has games in. */
export function profileCategories(ratings: Partial<Record<RatingCategory, { games: number }>>): RatingCategory[] {
  return RATING_CATEGORIES.filter((c) => SPEED_CATEGORIES.includes(c) || (ratings[c]?.games ?? 0) > 0);
}
