// @vitest-environment jsdom
import { cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { EvalGraph } from './EvalGraph';
import { SCHOLAR, SCHOLAR_FENS, SCHOLAR_RUNNING, SCHOLAR_SAN } from './fixtures';
import { ReviewPanel } from './ReviewPanel';
import type { GameReview } from './state';

afterEach(cleanup);

const NAMES = { white: 'Ann', black: 'Ben' };

function panel(review: GameReview | undefined, ply = 7) {
  const onView = vi.fn();
  const onRequest = vi.fn();
  render(<ReviewPanel review={review} ply={ply} fens={SCHOLAR_FENS} names={NAMES} onView={onView} onRequest={onRequest} />);
  return { onView, onRequest };
}

describe('ReviewPanel', () => {
  it('offers the request, says a refusal, and waits while asking', () => {
    const { onRequest } = panel({ status: 'none', analysis: null, error: "The server's analysis queue is full; try again later." });
    expect(screen.getByRole('alert').textContent).toBe("The server's analysis queue is full; try again later.");
    fireEvent.click(screen.getByRole('button', { name: 'Request a computer analysis' }));
    expect(onRequest).toHaveBeenCalledOnce();
    cleanup();
    panel({ status: 'asking', analysis: null, error: null });
    expect((screen.getByRole('button', { name: 'Request a computer analysis' }) as HTMLButtonElement).disabled).toBe(true);
    cleanup();
    panel({ status: 'loading', analysis: null, error: null });
    panel({ status: 'unavailable', analysis: null, error: null });
    panel(undefined);
    expect(screen.queryByRole('region')).toBeNull();
  });

  it('shows the progress of a running analysis', () => {
    panel({ status: 'running', analysis: SCHOLAR_RUNNING, error: null });
    const bar = screen.getByRole('progressbar', { name: 'Computer analysis' });
    expect(bar.getAttribute('aria-valuenow')).toBe('3');
    expect(bar.getAttribute('aria-valuemax')).toBe('8');
    expect(screen.getByText('Analysing… 3 / 8 positions')).toBeTruthy();
  });

  it('says the judged move and the line from the position before it', () => {
    panel({ status: 'done', analysis: SCHOLAR, error: null }, 6);
    expect(screen.getByText('Blunder. g6 was best.')).toBeTruthy();
    expect(screen.getByText(/^Best line: 3… g6 4\. Qd1 Bg7 5\. Nc3/)).toBeTruthy();
  });

  it('gives the evaluation elsewhere, and the game’s end', () => {
    panel({ status: 'done', analysis: SCHOLAR, error: null }, 0);
    expect(screen.getByText(/Evaluation/).textContent).toBe('Evaluation +0.2 · depth 14');
    expect(screen.getByText(/^Best line: 1\. e4 e6 2\. Nc3/)).toBeTruthy();
    cleanup();
    panel({ status: 'done', analysis: SCHOLAR, error: null }, 7);
    expect(screen.getByText('The game is over here.')).toBeTruthy();
  });

  it('shows each side’s figures, its counts going to its judged moves, and the next and previous mistake', () => {
    const { onView } = panel({ status: 'done', analysis: SCHOLAR, error: null }, 0);
    const white = within(screen.getByRole('group', { name: 'White: Ann' }));
    const black = within(screen.getByRole('group', { name: 'Black: Ben' }));
    expect(white.getByText('95%')).toBeTruthy();
    expect(white.getByText('10 average centipawn loss')).toBeTruthy();
    expect(white.queryAllByRole('button')).toHaveLength(0);
    expect(black.getByText('22%')).toBeTruthy();
    expect(black.getByText('344 average centipawn loss')).toBeTruthy();
    expect(black.getByText('0 inaccuracies')).toBeTruthy();
    fireEvent.click(black.getByRole('button', { name: '1 blunder' }));
    fireEvent.click(screen.getByRole('button', { name: 'Next mistake' }));
    fireEvent.click(screen.getByRole('button', { name: 'Previous mistake' }));
    expect(onView.mock.calls).toEqual([[6], [6], [6]]);
  });
});

describe('EvalGraph', () => {
  it('names itself and the ply shown, and goes to a judged move by click or Enter', () => {
    const onView = vi.fn();
    render(<EvalGraph analysis={SCHOLAR} ply={6} san={SCHOLAR_SAN} onView={onView} />);
    const graph = screen.getByRole('group', { name: /^Evaluation graph: / });
    expect(graph.getAttribute('aria-label')).toMatch(/shown: 98% after 3\.\.\. Nf6$/);
    const dot = within(graph).getByRole('button', { name: '3... Nf6, blunder' });
    expect(dot.getAttribute('aria-current')).toBe('true');
    expect(within(graph).getAllByRole('button')).toHaveLength(1);
    fireEvent.click(dot);
    fireEvent.keyDown(dot, { key: 'Enter' });
    fireEvent.keyDown(dot, { key: 'x' });
    expect(onView.mock.calls).toEqual([[6], [6]]);
  });
});
