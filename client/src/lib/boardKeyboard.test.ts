import { describe, expect, it } from 'vitest';
import { boardKey, cursorStart, isSquare } from './boardKeyboard';

/** Where the cursor goes from `from` after each key in turn. */
function walk(from: string, orientation: 'white' | 'black', ...keys: string[]): string {
  let sq = from;
  for (const key of keys) {
    const a = boardKey(key, sq, orientation);
    if (a?.kind !== 'cursor') throw new Error(`${key} does not move the cursor`);
    sq = a.square;
  }
  return sq;
}

describe('the board by keyboard', () => {
  it('moves the cursor one square per arrow, as White sees the board', () => {
    expect(walk('e2', 'white', 'ArrowUp')).toBe('e3');
    expect(walk('e2', 'white', 'ArrowDown')).toBe('e1');
    expect(walk('e2', 'white', 'ArrowLeft')).toBe('d2');
    expect(walk('e2', 'white', 'ArrowRight')).toBe('f2');
    expect(walk('a1', 'white', 'ArrowRight', 'ArrowRight', 'ArrowUp')).toBe('c2');
  });

  it('turns the directions round from Black’s side', () => {
    expect(walk('e7', 'black', 'ArrowUp')).toBe('e6');
    expect(walk('e7', 'black', 'ArrowDown')).toBe('e8');
    expect(walk('e7', 'black', 'ArrowLeft')).toBe('f7');
    expect(walk('e7', 'black', 'ArrowRight')).toBe('d7');
  });

  it('stays on the board at its edges', () => {
    expect(walk('h8', 'white', 'ArrowUp', 'ArrowRight')).toBe('h8');
    expect(walk('a1', 'white', 'ArrowDown', 'ArrowLeft')).toBe('a1');
    expect(walk('a1', 'black', 'ArrowUp', 'ArrowRight')).toBe('a1');
    expect(walk('h8', 'black', 'ArrowDown', 'ArrowLeft')).toBe('h8');
  });

  it('jumps to the ends of the rank and of the file with Home, End, PageUp and PageDown', () => {
    expect(walk('d4', 'white', 'Home')).toBe('a4');
    expect(walk('d4', 'white', 'End')).toBe('h4');
    expect(walk('d4', 'white', 'PageUp')).toBe('d8');
    expect(walk('d4', 'white', 'PageDown')).toBe('d1');
    expect(walk('d4', 'black', 'Home')).toBe('h4');
    expect(walk('d4', 'black', 'End')).toBe('a4');
    expect(walk('d4', 'black', 'PageUp')).toBe('d1');
    expect(walk('d4', 'black', 'PageDown')).toBe('d8');
  });

  it('acts on the square with Enter or Space, cancels with Escape, and leaves other keys alone', () => {
    expect(boardKey('Enter', 'e2', 'white')).toEqual({ kind: 'activate' });
    expect(boardKey(' ', 'e2', 'black')).toEqual({ kind: 'activate' });
    expect(boardKey('Escape', 'e2', 'white')).toEqual({ kind: 'cancel' });
    for (const key of ['Tab', 'a', 'F5', 'Shift']) expect(boardKey(key, 'e2', 'white')).toBeNull();
  });

  it('starts on the selected piece, else on the last move, else in front of the viewer’s king', () => {
    expect(cursorStart('white', 'g1', { to: 'e5' })).toBe('g1');
    expect(cursorStart('white', null, { to: 'e5' })).toBe('e5');
    expect(cursorStart('white', null, null)).toBe('e2');
    expect(cursorStart('black', null, null)).toBe('e7');
    expect(isSquare('e9')).toBe(false);
    expect(isSquare('h8')).toBe(true);
  });
});
