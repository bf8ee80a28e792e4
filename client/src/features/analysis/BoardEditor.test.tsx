// @vitest-environment jsdom
import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { ClientProvider } from '../../app/ClientProvider';
import { clientOnFakeSocket } from '../../app/testClient';
import { START_FEN } from '../../lib/chess';
import { welcome } from '../../net/fakeSocket';
import { BoardEditor } from './BoardEditor';

afterEach(cleanup);

function setup() {
  const { f, client } = clientOnFakeSocket();
  welcome(f.current);
  render(
    <ClientProvider client={client}>
      <BoardEditor />
    </ClientProvider>,
  );
}

const fen = () => (screen.getByLabelText('FEN') as HTMLInputElement).value;
const analyse = () => screen.getByRole('button', { name: 'Analyse this position' }) as HTMLButtonElement;

describe('BoardEditor', () => {
  it('sets up a position with the palette, the side to move and castling; says what is wrong with it', () => {
    setup();
    expect(fen()).toBe(START_FEN);
    expect(analyse().disabled).toBe(false);
    fireEvent.click(screen.getByRole('button', { name: 'Clear board' }));
    expect(fen()).toBe('8/8/8/8/8/8/8/8 w - - 0 1');
    expect(screen.getByRole('status').textContent).toBe('White has no king: each side needs exactly one.');
    expect(analyse().disabled).toBe(true);

    fireEvent.click(screen.getByRole('button', { name: 'white king' }));
    fireEvent.click(screen.getByRole('button', { name: 'e1, empty' }));
    fireEvent.click(screen.getByRole('button', { name: 'black king' }));
    fireEvent.click(screen.getByRole('button', { name: 'e8, empty' }));
    fireEvent.click(screen.getByRole('button', { name: 'white rook' }));
    fireEvent.click(screen.getByRole('button', { name: 'h1, empty' }));
    fireEvent.click(screen.getByRole('button', { name: 'e2, empty' }));
    expect(fen()).toBe('4k3/8/8/8/8/8/4R3/4K2R w - - 0 1');
    fireEvent.click(screen.getByRole('checkbox', { name: 'White O-O' }));
    expect((screen.getByRole('checkbox', { name: 'White O-O-O' }) as HTMLInputElement).disabled).toBe(true);
    expect(fen()).toBe('4k3/8/8/8/8/8/4R3/4K2R w K - 0 1');
    // The rook on e2 gives check: Black must be to move.
    expect(screen.getByRole('status').textContent).toBe("Black is in check, but it is White's move.");
    expect(analyse().disabled).toBe(true);
    fireEvent.click(screen.getByRole('radio', { name: 'Black' }));
    expect(analyse().disabled).toBe(false);
    expect(fen()).toBe('4k3/8/8/8/8/8/4R3/4K2R b K - 0 1');
    fireEvent.click(screen.getByRole('radio', { name: 'White' }));
    // The same piece again takes it off; "Remove" too.
    fireEvent.click(screen.getByRole('button', { name: 'e2, white rook' }));
    expect(fen()).toBe('4k3/8/8/8/8/8/8/4K2R w K - 0 1');
    expect(analyse().disabled).toBe(false);
    fireEvent.click(screen.getByRole('button', { name: 'Remove' }));
    fireEvent.click(screen.getByRole('button', { name: 'h1, white rook' }));
    expect(fen()).toBe('4k3/8/8/8/8/8/8/4K3 w - - 0 1');
  });

  it('takes a typed FEN and moves between squares by keyboard', () => {
    setup();
    fireEvent.change(screen.getByLabelText('FEN'), { target: { value: '4k3/8/8/8/8/8/8/4K2P' } });
    expect(screen.getByRole('status').textContent).toBe('No pawn may stand on the first or last rank (h1).');
    fireEvent.blur(screen.getByLabelText('FEN'));
    expect(fen()).toBe('4k3/8/8/8/8/8/8/4K2P w - - 0 1');
    const e2 = screen.getByRole('button', { name: 'e2, empty' });
    expect(e2.tabIndex).toBe(0);
    e2.focus();
    fireEvent.keyDown(e2, { key: 'ArrowUp' });
    expect(document.activeElement).toBe(screen.getByRole('button', { name: 'e3, empty' }));
    expect(e2.tabIndex).toBe(-1);
  });
});
