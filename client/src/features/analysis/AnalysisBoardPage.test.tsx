// @vitest-environment jsdom
import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ClientProvider } from '../../app/ClientProvider';
import { clientOnFakeSocket } from '../../app/testClient';
import { welcome } from '../../net/fakeSocket';
import { AnalysisBoardPage } from './AnalysisBoardPage';

// jsdom lays nothing out: react-chessboard's piece animation needs a square's width.
beforeEach(() => {
  vi.spyOn(Element.prototype, 'getBoundingClientRect').mockReturnValue(new DOMRect(0, 0, 50, 50));
});
afterEach(() => {
  cleanup();
  vi.restoreAllMocks();
  window.history.replaceState(null, '', '/');
});

function open(path: string) {
  window.history.replaceState(null, '', path);
  const { f, client } = clientOnFakeSocket();
  welcome(f.current);
  render(
    <ClientProvider client={client}>
      <AnalysisBoardPage />
    </ClientProvider>,
  );
}

const current = () =>
  screen.getByRole('group', { name: 'Moves' }).querySelector('[aria-current="true"]')?.getAttribute('aria-label') ?? null;

describe('AnalysisBoardPage', () => {
  it('opens a game\'s moves at the ply asked for; the history keys browse them, but not from the board', () => {
    open('/analysis?moves=e2e4,e7e5,g1f3&ply=2');
    expect(current()).toBe('1… e5');
    fireEvent.keyDown(document.body, { key: 'ArrowLeft' });
    expect(current()).toBe('1. e4');
    fireEvent.keyDown(document.body, { key: 'End' });
    expect(current()).toBe('2. Nf3');
    fireEvent.keyDown(document.body, { key: 'Home' });
    expect(current()).toBeNull();
    fireEvent.keyDown(document.body, { key: 'ArrowRight' });
    expect(current()).toBe('1. e4');
    // On the board the arrows move its cursor; in a text field they move the caret.
    fireEvent.keyDown(screen.getByRole('application'), { key: 'ArrowRight' });
    fireEvent.keyDown(screen.getByLabelText('Paste a PGN'), { key: 'ArrowRight' });
    expect(current()).toBe('1. e4');
  });

  it('loads a pasted PGN, and says what is wrong with one it cannot read', () => {
    open('/analysis');
    const pgn = screen.getByLabelText('Paste a PGN');
    fireEvent.change(pgn, { target: { value: '1. e4 e5 2. Ke3' } });
    fireEvent.click(screen.getByRole('button', { name: 'Load PGN' }));
    expect(screen.getByRole('alert').textContent).toBe('"Ke3" is not a legal move for White at move 2.');
    fireEvent.change(pgn, { target: { value: '1. d4 d5 (1... Nf6) 2. c4' } });
    fireEvent.click(screen.getByRole('button', { name: 'Load PGN' }));
    expect(screen.queryByRole('alert')).toBeNull();
    expect(current()).toBe('2. c4');
    expect((screen.getByLabelText('Current FEN') as HTMLInputElement).value).toBe(
      'rnbqkbnr/ppp1pppp/8/3p4/2PP4/8/PP2PPPP/RNBQKBNR b KQkq - 0 2',
    );
    expect(screen.getByRole('group', { name: 'Variation' }).textContent).toBe('1…Nf6');
  });
});
