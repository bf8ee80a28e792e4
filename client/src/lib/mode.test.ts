import { describe, expect, it } from 'vitest';
import { gameModeLabel, ratedField, seekModeLabel } from './mode';

describe('seekModeLabel', () => {
  it('reads the flags the server puts on seeks and challenges', () => {
    expect(seekModeLabel({ rated: true })).toBe('rated');
    expect(seekModeLabel({ casual: true })).toBe('casual');
    expect(seekModeLabel({})).toBe('rated if possible');
    // A direct challenge carries rated either way.
    const to = { id: 'b1', name: 'RandBot', bot: true };
    expect(seekModeLabel({ to, rated: false })).toBe('casual');
    expect(seekModeLabel({ to, rated: true })).toBe('rated');
    expect(seekModeLabel({ to, rated: false, casual: true })).toBe('casual');
  });
});

describe('gameModeLabel', () => {
  it('says rated or casual, or nothing when the server does not say', () => {
    expect(gameModeLabel(true)).toBe('rated');
    expect(gameModeLabel(false)).toBe('casual');
    expect(gameModeLabel(null)).toBeNull();
    expect(gameModeLabel(undefined)).toBeNull();
  });
});

describe('ratedField', () => {
  it('asks for a rated game only for an account that chose one', () => {
    expect(ratedField('rated', true)).toBe(true);
    expect(ratedField('casual', true)).toBe(false);
    expect(ratedField('rated', false)).toBe(false);
    expect(ratedField('rated', undefined)).toBe(false);
  });
});
