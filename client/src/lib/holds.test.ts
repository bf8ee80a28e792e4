import { describe, expect, it } from 'vitest';
import { Holds } from './holds';

describe('Holds', () => {
  it('says when the first holder comes and the last one leaves', () => {
    const h = new Holds<string>();
    expect(h.add('g1')).toBe(true);
    expect(h.add('g1')).toBe(false);
    expect(h.remove('g1')).toBe(false);
    expect(h.has('g1')).toBe(true);
    expect(h.remove('g1')).toBe(true);
    expect(h.has('g1')).toBe(false);
    expect([...h.keys()]).toEqual([]);
  });
});
