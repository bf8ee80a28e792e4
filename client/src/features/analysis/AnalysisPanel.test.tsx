// @vitest-environment jsdom
import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ClientProvider } from '../../app/ClientProvider';
import { clientOnFakeSocket } from '../../app/testClient';
import { welcome } from '../../net/fakeSocket';
import { AFTER_E4, START } from '../../net/fixtures';
import { AnalysisPanel } from './AnalysisPanel';

afterEach(cleanup);

function setup() {
  const { f, client } = clientOnFakeSocket();
  welcome(f.current);
  const view = (fen: string) => (
    <ClientProvider client={client}>
      <AnalysisPanel fen={fen} />
    </ClientProvider>
  );
  const r = render(view(START));
  return { f, rerender: (fen: string) => r.rerender(view(fen)), unmount: r.unmount };
}

describe('AnalysisPanel', () => {
  it('analyses on demand, shows the line with move numbers, follows the position and stops', async () => {
    const { f, rerender, unmount } = setup();
    expect(f.current.last('analyse')).toBeUndefined();
    fireEvent.click(screen.getByRole('button', { name: 'Analyse' }));
    await vi.waitFor(() => expect(f.current.last('analyse')).toMatchObject({ fen: START, multipv: 1 }));
    const sent = f.current.last('analyse')!;
    act(() => {
      f.current.receive({ type: 'analysis_started', analysis: 7, fen: START, movetime: 60000, multipv: 1, id: sent.id });
    });
    await screen.findByRole('button', { name: 'Stop analysis' });
    act(() => {
      f.current.receive({ type: 'analysis', analysis: 7, depth: 12, multipv: 1, score: { cp: 34 }, pv: ['e4', 'e5', 'Nf3'] });
    });
    expect(screen.getByRole('status').textContent).toBe('Analysing… depth 12');
    expect(screen.getByRole('list', { name: 'Engine lines' }).textContent).toContain('1. e4 e5 2. Nf3');
    expect(screen.getByRole('meter', { name: 'Evaluation' }).getAttribute('aria-valuetext')).toBe('White better by 0.3 pawns');

    // Another position: the running analysis is stopped first.
    f.current.sent.length = 0;
    rerender(AFTER_E4);
    await vi.waitFor(() => expect(f.current.last('analysis_stop')).toMatchObject({ analysis: 7 }));
    act(() => {
      f.current.receive({ type: 'ok', id: f.current.last('analysis_stop')!.id });
      f.current.receive({ type: 'analysis_done', analysis: 7, reason: 'stopped' });
    });
    await vi.waitFor(() => expect(f.current.last('analyse')).toMatchObject({ fen: AFTER_E4 }));
    act(() => {
      f.current.receive({ type: 'analysis_started', analysis: 8, fen: AFTER_E4, movetime: 60000, multipv: 1, id: f.current.last('analyse')!.id });
    });
    await screen.findByRole('button', { name: 'Stop analysis' });

    // Leaving the page stops it.
    f.current.sent.length = 0;
    unmount();
    await vi.waitFor(() => expect(f.current.last('analysis_stop')).toMatchObject({ analysis: 8 }));
  });
});
