/* TV's choice of game. */
import { describe, expect, it } from 'vitest';
import type { GameSummary } from '../../net/protocol';
import { pickTop } from './tv';

const game = (id: string, white?: number, black?: number): GameSummary => ({
  id,
  white: { id: `${id}w`, name: 'W', ...(white === undefined ? {} : { rating: white }) },
  black: { id: `${id}b`, name: 'B', ...(black === undefined ? {} : { rating: black }) },
  time: { minutes: 3, increment: 2 },
  ply: 10,
  fen: 'x',
  turn: 'white',
  clock: null,
});

describe('pickTop', () => {
  it('shows the highest average rating, guests counting 1500, the newest on a tie', () => {
    const games = [game('new', 1600, 1600), game('guests'), game('strong', 2000, 1800), game('tie', 1900, 1900)];
    expect(pickTop(games)?.id).toBe('strong');
    expect(pickTop([game('a'), game('b')])?.id).toBe('a');
    expect(pickTop(games, new Set(['strong']))?.id).toBe('tie');
    expect(pickTop([])).toBeNull();
  });
});
