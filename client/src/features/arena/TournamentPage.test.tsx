// @vitest-environment jsdom
/*
 * A tournament's page against a fake server: watched on entering and unwatched on leaving, the
 * standings as lichess shows them (sheet most recent first, bonus wins marked, the fire of a
 * streak), the player's place, Pause, the podium once finished, and a new game of the player's
 * opened by itself (not the one in progress when the page came).
 */
import { act, cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ClientProvider } from '../../app/ClientProvider';
import { clientOnFakeSocket } from '../../app/testClient';
import { welcome } from '../../net/fakeSocket';
import { arenaFull, place } from './fixtures';
import { TournamentPage } from './TournamentPage';

afterEach(cleanup);
beforeEach(() => window.history.replaceState(null, '', '/tournament/Tz7kQ2pX'));

const ANN = 'a1B2c3D4e5F6';

function setup() {
  const { f, client } = clientOnFakeSocket();
  welcome(f.current, [], 'tok1', { id: ANN, name: 'ann', registered: true } as never);
  const view = render(
    <ClientProvider client={client}>
      <TournamentPage id="Tz7kQ2pX" />
    </ClientProvider>,
  );
  return { f, view };
}

const annPlace = place(1, ANN, 'ann', { score: 7, games: 3, wins: 3, sheet: [2, 2, 3], fire: true });
const bobPlace = place(2, 'b2C3d4E5f6G7', 'bob', { games: 3, losses: 3, sheet: [0, 0, 0], withdrawn: true });

describe('TournamentPage', () => {
  it('shows the standings and the player’s place, pauses, and unwatches on leaving', async () => {
    const { f, view } = setup();
    const watch = f.current.last('arena_watch')!;
    expect(watch).toMatchObject({ arena: 'Tz7kQ2pX' });
    act(() =>
      f.current.receive({
        type: 'arena',
        id: watch.id,
        arena: arenaFull({ v: 4, status: 'started', players: 2, starts: Date.now() - 60000, ends: Date.now() + 125500, standings: [annPlace, bobPlace], me: annPlace }),
      }),
    );
    await screen.findByRole('heading', { name: /Hourly Blitz Arena/ });
    expect(screen.getByRole('timer').textContent).toMatch(/^Ends in 2:0[56]$/);
    expect(screen.getByRole('status').textContent).toBe('You are 1st with 7 points');
    const rows = within(screen.getByRole('table')).getAllByRole('row').slice(1);
    expect(rows.map((r) => r.querySelector('.sheet')!.textContent)).toEqual(['322', '000']);
    expect(rows[0].querySelector('.sheet-bonus')!.textContent).toBe('3');
    expect(within(rows[0]).getByRole('img', { name: 'on fire' })).toBeTruthy();
    expect(within(rows[1]).queryByRole('img', { name: 'on fire' })).toBeNull();
    expect(rows[1].textContent).toContain('paused');
    fireEvent.click(screen.getByRole('button', { name: 'Pause' }));
    expect(f.current.last('arena_withdraw')).toMatchObject({ arena: 'Tz7kQ2pX' });
    view.unmount();
    expect(f.current.last('arena_unwatch')).toMatchObject({ arena: 'Tz7kQ2pX' });
  });

  it('shows the podium once finished, without Join', async () => {
    const { f } = setup();
    const podium = [annPlace, bobPlace];
    act(() =>
      f.current.receive({ type: 'arena', id: f.current.last('arena_watch')!.id, arena: arenaFull({ v: 9, status: 'finished', standings: podium, podium }) }),
    );
    const list = await screen.findByRole('list', { name: 'Podium' });
    expect(within(list).getAllByRole('listitem').map((li) => li.textContent?.slice(0, 20))).toEqual([
      '1st ann 7 points 3 g',
      '2nd bob 0 points 3 g',
    ]);
    expect(screen.getByRole('timer').textContent).toBe('Finished');
    expect(screen.queryByRole('button', { name: /Join/ })).toBeNull();
  });

  it('opens a new game of the player’s, not the one in progress when it came', async () => {
    const { f } = setup();
    act(() =>
      f.current.receive({
        type: 'arena',
        id: f.current.last('arena_watch')!.id,
        arena: arenaFull({ v: 4, status: 'started', standings: [annPlace], me: annPlace, game: 'g1' }),
      }),
    );
    await screen.findByRole('link', { name: 'Your game is on: open it' });
    expect(window.location.pathname).toBe('/tournament/Tz7kQ2pX');
    // The game ends: no game, still here.
    act(() => f.current.receive({ type: 'arena_standings', arena: 'Tz7kQ2pX', v: 5, status: 'started', players: 1, standings: [annPlace], me: annPlace }));
    expect(screen.queryByRole('link', { name: 'Your game is on: open it' })).toBeNull();
    expect(window.location.pathname).toBe('/tournament/Tz7kQ2pX');
    // Paired again: its page opens.
    act(() => f.current.receive({ type: 'arena_standings', arena: 'Tz7kQ2pX', v: 6, status: 'started', players: 1, standings: [annPlace], me: annPlace, game: 'g2' }));
    await vi.waitFor(() => expect(window.location.pathname).toBe('/game/g2'));
  });
});
