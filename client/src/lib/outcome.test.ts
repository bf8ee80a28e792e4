import { describe, expect, it } from 'vitest';
import { describeOutcome } from './outcome';
import { readableError, sentence } from './errors';
import { soundForSan } from './sound';

describe('describeOutcome', () => {
  it('says who won and why', () => {
    expect(describeOutcome('0-1', 'checkmate', 'black')).toEqual({ title: 'Black wins', detail: 'Checkmate', score: '0-1' });
    expect(describeOutcome('1-0', 'resignation', 'white').detail).toBe('Black resigned');
    expect(describeOutcome('1-0', 'timeout', 'white').detail).toBe('Black ran out of time');
    expect(describeOutcome('0-1', 'abandoned', 'black').detail).toBe('White left the game');
    expect(describeOutcome('1/2-1/2', 'agreement', null)).toEqual({ title: 'Draw', detail: 'By agreement', score: '½-½' });
    expect(describeOutcome('1/2-1/2', 'timeout_vs_insufficient_material', null).title).toBe('Draw');
    expect(describeOutcome('*', 'aborted', null).title).toBe('Game aborted');
  });
});

describe('errors and sounds', () => {
  it('makes sentences of server messages', () => {
    expect(readableError({ code: 'NOT_YOUR_TURN', message: 'it is not your turn to move' })).toBe(
      'It is not your turn to move.',
    );
    expect(readableError({ code: 'OFFLINE', message: 'x' })).toMatch(/^Not connected/);
    expect(readableError({ code: 'SOME_CODE' })).toBe('Some code.');
    expect(readableError(null)).toBe('Something went wrong.');
    expect(sentence('done!')).toBe('Done!');
  });
  it('picks a sound from the SAN', () => {
    expect(soundForSan('Nf3')).toBe('move');
    expect(soundForSan('exd5')).toBe('capture');
    expect(soundForSan('Qxf7#')).toBe('check');
    expect(soundForSan('O-O+')).toBe('check');
  });
});
