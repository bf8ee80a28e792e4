import { describe, expect, it } from 'vitest';
import { liveGameLabel } from './LiveGames';

describe('live game label', () => {
  it('says the time control, and the variant of a game other than standard chess', () => {
    const time = { minutes: 3, increment: 2 };
    expect(liveGameLabel({ time })).toBe('3+2');
    expect(liveGameLabel({ time, variant: 'standard' })).toBe('3+2');
    expect(liveGameLabel({ time, variant: 'chess960', position: 692 })).toBe('3+2 Chess960 #692');
    expect(liveGameLabel({ time, variant: 'threeCheck' })).toBe('3+2 Three-check');
  });
});
