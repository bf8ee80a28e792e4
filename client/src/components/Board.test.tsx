// @vitest-environment jsdom
import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { START_FEN, type LocalMove } from '../lib/chess';
import { Board } from './Board';

afterEach(() => {
  cleanup();
  vi.restoreAllMocks();
});

const AFTER_F3 = 'rnbqkbnr/pppppppp/8/8/8/5P2/PPPPP1PP/RNBQKBNR b KQkq - 0 1';

function board(over: Partial<Parameters<typeof Board>[0]> = {}) {
  const onMove = vi.fn<(m: LocalMove) => void>();
  const props = {
    fen: START_FEN,
    orientation: 'white' as const,
    movable: 'white' as const,
    lastMove: null,
    checkSquare: null,
    onMove,
    label: 'Board, white at the bottom',
    ...over,
  };
  const view = render(<Board {...props} />);
  return { onMove, view, props, app: screen.getByRole('application', { name: 'Board, white at the bottom' }) };
}

/** The label of the board's active descendant (the cursor square). */
function cursorLabel(app: HTMLElement): string | null {
  const id = app.getAttribute('aria-activedescendant');
  return id ? (document.getElementById(id)?.getAttribute('aria-label') ?? null) : null;
}

const key = (el: HTMLElement, k: string) => fireEvent.keyDown(el, { key: k });

describe('the board by keyboard', () => {
  it('is one tab stop: the pieces are neither tab stops nor buttons', async () => {
    const { app } = board();
    await act(async () => {}); // the pieces made plain (a mutation observer)
    expect(app.tabIndex).toBe(0);
    expect(app.querySelectorAll('[tabindex]')).toHaveLength(0);
    expect(app.querySelectorAll('[role="button"]')).toHaveLength(0);
    expect(app.querySelectorAll('[data-piece]').length).toBe(32);
  });

  it('moves a cursor square by square and plays a move with Enter', () => {
    const { app, onMove } = board();
    fireEvent.focus(app);
    expect(cursorLabel(app)).toBe('e2, white pawn');
    key(app, 'ArrowRight');
    expect(cursorLabel(app)).toBe('f2, white pawn');
    key(app, 'Enter');
    expect(cursorLabel(app)).toBe('f2, white pawn, selected');
    key(app, 'ArrowUp');
    expect(cursorLabel(app)).toBe('f3, empty, legal move');
    key(app, ' ');
    expect(onMove).toHaveBeenCalledTimes(1);
    expect(onMove.mock.calls[0][0]).toMatchObject({ uci: 'f2f3' });
  });

  it('cancels the selection with Escape, and leaves Tab to the page', () => {
    const { app } = board();
    fireEvent.focus(app);
    key(app, 'Enter');
    expect(cursorLabel(app)).toBe('e2, white pawn, selected');
    key(app, 'Escape');
    expect(cursorLabel(app)).toBe('e2, white pawn');
    expect(fireEvent.keyDown(app, { key: 'Tab' })).toBe(true); // not prevented
    expect(fireEvent.keyDown(app, { key: 'ArrowUp' })).toBe(false); // the board's own
  });

  it('says a move shown on the board in words', () => {
    // react-chessboard measures a square to animate a piece (jsdom lays nothing out).
    const rect = { x: 0, y: 0, top: 0, left: 0, right: 50, bottom: 50, width: 50, height: 50 };
    vi.spyOn(HTMLElement.prototype, 'getBoundingClientRect').mockReturnValue({ ...rect, toJSON: () => rect });
    const { view, props } = board();
    view.rerender(<Board {...props} fen={AFTER_F3} lastMove={{ from: 'f2', to: 'f3' }} movable={null} />);
    expect(screen.getByRole('log', { name: 'Moves said' }).textContent).toBe('pawn from f2 to f3');
  });
});

describe('the promotion chooser', () => {
  it('stands over the promotion square, from it inwards, as the viewer sees the board', async () => {
    const { promotionPlacement } = await import('./Board');
    expect(promotionPlacement('a8', 'white')).toEqual({ left: '0%', atTop: true });
    expect(promotionPlacement('h1', 'black')).toEqual({ left: '0%', atTop: true });
    expect(promotionPlacement('c1', 'white')).toEqual({ left: '25%', atTop: false });
    expect(promotionPlacement('e8', 'black')).toEqual({ left: '37.5%', atTop: false });
  });
});

describe('the board in a live game of a variant', () => {
  // Chess960 array 692 (RBBQKNNR) after 1. Ng3 Ng6 2. Nf3 Nf6: both kings may castle.
  const FEN = 'rbbqk2r/pppppppp/5nn1/8/8/5NN1/PPPPPPPP/RBBQK2R w KQkq - 4 3';
  const DESTS = { e1: ['f1', 'g1', 'h1'], f3: ['d4', 'e5', 'g5', 'h4', 'g1'] };

  it('moves by the server’s dests: the king onto its own rook castles', () => {
    const { app, onMove } = board({ fen: FEN, dests: DESTS });
    fireEvent.focus(app);
    key(app, 'ArrowDown'); // e1
    key(app, 'Enter');
    expect(screen.getByLabelText(/^h1, white rook, legal move/)).toBeTruthy();
    expect(screen.getByLabelText(/^g1, empty, legal move/)).toBeTruthy();
    expect(screen.queryByLabelText(/^d2, .*legal move/)).toBeNull(); // not in the dests
    key(app, 'ArrowRight');
    key(app, 'ArrowRight');
    key(app, 'ArrowRight'); // h1
    key(app, 'Enter');
    expect(onMove).toHaveBeenCalledTimes(1);
    expect(onMove.mock.calls[0][0]).toMatchObject({ uci: 'e1h1', san: 'O-O' });
    expect(onMove.mock.calls[0][0].fen.split(' ')[0]).toBe('rbbqk2r/pppppppp/5nn1/8/8/5NN1/PPPPPPPP/RBBQ1RK1');
  });

  it('marks King of the Hill’s centre', () => {
    board({ marked: ['d4', 'e4', 'd5', 'e5'], movable: null });
    for (const sq of ['d4', 'e4', 'd5', 'e5']) expect(screen.getByLabelText(new RegExp(`^${sq}, empty, hill`))).toBeTruthy();
    expect(screen.getByLabelText(/^c4, empty$/)).toBeTruthy();
  });
});
