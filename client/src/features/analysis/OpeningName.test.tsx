// @vitest-environment jsdom
import { act, cleanup, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ClientProvider } from '../../app/ClientProvider';
import { clientOnFakeSocket } from '../../app/testClient';
import { welcome } from '../../net/fakeSocket';
import { AFTER_E4 } from '../../net/fixtures';
import { OpeningLabel, OpeningName, type OpeningNameProps } from './OpeningName';

afterEach(cleanup);

function setup(props: OpeningNameProps) {
  const { f, client } = clientOnFakeSocket();
  welcome(f.current);
  const view = (p: OpeningNameProps) => (
    <ClientProvider client={client}>
      <OpeningName debounceMs={0} {...p} />
    </ClientProvider>
  );
  const r = render(view(props));
  return { f, rerender: (p: OpeningNameProps) => r.rerender(view(p)) };
}

describe('OpeningName', () => {
  it("asks the server about the line and shows the opening's code and name as the line changes", async () => {
    const { f, rerender } = setup({ moves: ['e4', 'c5'] });
    await vi.waitFor(() => expect(f.current.last('opening_lookup')).toMatchObject({ moves: ['e4', 'c5'] }));
    expect(f.current.last('opening_lookup')!.fen).toBeUndefined();
    act(() => {
      f.current.receive({ type: 'opening', opening: { eco: 'B20', name: 'Sicilian', ply: 2 }, id: f.current.last('opening_lookup')!.id });
    });
    expect((await screen.findByRole('note')).textContent).toBe('B20 Sicilian');
    // From a FEN (the analysis board): the FEN goes with the moves; no name: nothing shown.
    rerender({ startFen: AFTER_E4, moves: ['a6'] });
    await vi.waitFor(() => expect(f.current.last('opening_lookup')).toMatchObject({ fen: AFTER_E4, moves: ['a6'] }));
    act(() => {
      f.current.receive({ type: 'opening', opening: null, id: f.current.last('opening_lookup')!.id });
    });
    await vi.waitFor(() => expect(screen.queryByRole('note')).toBeNull());
    // A bad line: the server's reason.
    rerender({ moves: ['e4', 'e4'] });
    await vi.waitFor(() => expect(f.current.last('opening_lookup')).toMatchObject({ moves: ['e4', 'e4'] }));
    act(() => {
      f.current.receive({ type: 'error', code: 'ILLEGAL_MOVE', message: 'the move is not legal in this position', id: f.current.last('opening_lookup')!.id });
    });
    expect((await screen.findByRole('note')).textContent).toContain('not legal');
  });

  it('asks nothing for a game from a FEN (games from a FEN have no opening)', async () => {
    const { f } = setup({ startFen: AFTER_E4, moves: ['c5'], game: true });
    await new Promise((r) => setTimeout(r, 20));
    expect(f.current.last('opening_lookup')).toBeUndefined();
    expect(screen.queryByRole('note')).toBeNull();
  });

  it('labels an opening already known', () => {
    render(<OpeningLabel opening={{ eco: 'B90', name: 'Sicilian: Najdorf', ply: 10 }} />);
    expect(screen.getByRole('note', { name: 'Opening: B90 Sicilian: Najdorf' }).textContent).toBe('B90 Sicilian: Najdorf');
  });
});
