/* A computer line of an earlier position, seen from the current one. */
import { describe, expect, it } from 'vitest';
import { followedPv } from './EngineLine';

describe('followedPv', () => {
  it('keeps the line when it is of the current position', () => {
    expect(followedPv(['e5', 'Nf3', 'Nc6'], [])).toEqual(['e5', 'Nf3', 'Nc6']);
  });

  it('drops the moves played since, when the game followed the line', () => {
    expect(followedPv(['e5', 'Nf3', 'Nc6'], ['e5'])).toEqual(['Nf3', 'Nc6']);
    expect(followedPv(['e5', 'Nf3', 'Nc6'], ['e5', 'Nf3'])).toEqual(['Nc6']);
  });

  it('shows nothing when the game left the line (no move that was not played)', () => {
    expect(followedPv(['e5', 'Nf3', 'Nc6'], ['c5'])).toEqual([]);
    expect(followedPv(['e5', 'Nf3'], ['e5', 'd4'])).toEqual([]);
    expect(followedPv(['e5'], ['e5', 'Nf3', 'Nc6'])).toEqual([]);
  });
});
