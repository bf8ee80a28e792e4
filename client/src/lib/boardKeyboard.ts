/*
 * The board by keyboard alone, as pure functions: the board is one tab stop with a cursor
 * square; a key moves the cursor or acts on its square. Directions are as the viewer sees the
 * board: up is toward the far side (the opponent's, from White's side rank 8; from Black's,
 * rank 1), left is toward the viewer's left.
 *
 *   arrows       the cursor one square (it stays at an edge)
 *   Home, End    the first or last square of the cursor's rank, from the viewer's left
 *   PageUp/Down  the far or near square of the cursor's file
 *   Enter, Space the square as clicked (pick up a piece, put the picked one down: boardClick)
 *   Escape       the selection (and a queued premove) cancelled
 *
 * Any other key is none of the board's business (Tab leaves the board).
 */
import type { Color } from '../net/protocol';

export type BoardKeyAction =
  | { kind: 'cursor'; square: string }
  | { kind: 'activate' }
  | { kind: 'cancel' };

const FILES = 'abcdefgh';

/** The square at file index f (0 = a) and rank index r (0 = rank 1), clamped to the board. */
function at(f: number, r: number): string {
  const clamp = (n: number) => Math.min(7, Math.max(0, n));
  return `${FILES[clamp(f)]}${clamp(r) + 1}`;
}

/** Whether `square` names a square ("a1".."h8"). */
export function isSquare(square: string): boolean {
  return /^[a-h][1-8]$/.test(square);
}

/**
 * What a key does on the board with the cursor on `cursor`, seen from `orientation`'s side;
 * null for a key the board leaves alone.
 */
export function boardKey(key: string, cursor: string, orientation: Color): BoardKeyAction | null {
  if (key === 'Enter' || key === ' ' || key === 'Spacebar') return { kind: 'activate' };
  if (key === 'Escape') return { kind: 'cancel' };
  const f = FILES.indexOf(cursor[0]);
  const r = Number(cursor[1]) - 1;
  // +1 when "up" (away from the viewer) is toward rank 8 and "right" toward the h-file.
  const s = orientation === 'white' ? 1 : -1;
  const far = orientation === 'white' ? 7 : 0;
  switch (key) {
    case 'ArrowUp':
      return { kind: 'cursor', square: at(f, r + s) };
    case 'ArrowDown':
      return { kind: 'cursor', square: at(f, r - s) };
    case 'ArrowRight':
      return { kind: 'cursor', square: at(f + s, r) };
    case 'ArrowLeft':
      return { kind: 'cursor', square: at(f - s, r) };
    case 'Home':
      return { kind: 'cursor', square: at(7 - far, r) };
    case 'End':
      return { kind: 'cursor', square: at(far, r) };
    case 'PageUp':
      return { kind: 'cursor', square: at(f, far) };
    case 'PageDown':
      return { kind: 'cursor', square: at(f, 7 - far) };
    default:
      return null;
  }
}

/**
 * Where the cursor starts when the board first gets the focus: on the selected piece, else on
 * the last move's target, else the viewer's e-file pawn square (e2 from White's side, e7 from
 * Black's).
 */
export function cursorStart(orientation: Color, selected: string | null, lastMove: { to: string } | null): string {
  if (selected && isSquare(selected)) return selected;
  if (lastMove && isSquare(lastMove.to)) return lastMove.to;
  return orientation === 'white' ? 'e2' : 'e7';
}
