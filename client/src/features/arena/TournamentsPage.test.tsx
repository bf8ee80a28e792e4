// @vitest-environment jsdom
/*
 * The tournaments page against a fake server: the list (to come and in progress first, then the
 * finished ones), Join for accounts, the create form with the server's refusal in its words, and
 * a guest told that tournaments are for accounts.
 */
import { act, cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ClientProvider } from '../../app/ClientProvider';
import { clientOnFakeSocket } from '../../app/testClient';
import { welcome } from '../../net/fakeSocket';
import { arenaFull } from './fixtures';
import { TournamentsPage } from './TournamentsPage';

afterEach(cleanup);

function setup(registered: boolean) {
  const { f, client } = clientOnFakeSocket();
  welcome(f.current, [], 'tok1', { id: 'a1B2c3D4e5F6', name: 'ann', registered } as never);
  render(
    <ClientProvider client={client}>
      <TournamentsPage />
    </ClientProvider>,
  );
  const now = Date.now();
  act(() =>
    f.current.receive({
      type: 'arena_list',
      id: f.current.last('arena_list')!.id,
      arenas: [
        arenaFull({ id: 'Old1', name: 'Old Arena', status: 'finished', starts: now - 7200000, ends: now - 3600000 }),
        arenaFull({ id: 'Next1', name: 'Next Arena', starts: now + 65500, ends: now + 3665500, players: 3 }),
      ],
    }),
  );
  return { f };
}

describe('TournamentsPage', () => {
  it('lists the arenas to come first, and joins one', async () => {
    const { f } = setup(true);
    const rows = within(await screen.findByRole('table')).getAllByRole('row').slice(1);
    expect(rows.map((r) => r.querySelector('a')!.textContent)).toEqual(['Next Arena', 'Old Arena']);
    expect(rows[0].textContent).toMatch(/3\+0 blitz · rated.*57 min.*Starts in 1:0[56]/);
    expect(within(rows[1]).queryByRole('button')).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: 'Join Next Arena' }));
    expect(f.current.last('arena_join')).toMatchObject({ arena: 'Next1' });
  });

  it('creates an arena, showing the server’s refusal in the form', async () => {
    const { f } = setup(true);
    fireEvent.change(screen.getByLabelText('Name'), { target: { value: 'x' } });
    fireEvent.change(screen.getByLabelText('Clock'), { target: { value: '1+0' } });
    fireEvent.change(screen.getByLabelText('Length (minutes)'), { target: { value: '20' } });
    fireEvent.change(screen.getByLabelText('Starts'), { target: { value: '0' } });
    fireEvent.click(screen.getByRole('radio', { name: 'Casual' }));
    fireEvent.click(screen.getByRole('button', { name: 'Create the tournament' }));
    await vi.waitFor(() => expect(f.current.last('arena_create')).toBeDefined());
    const sent = f.current.last('arena_create')!;
    expect(sent).toMatchObject({ name: 'x', time: { minutes: 1, increment: 0 }, minutes: 20, starts_in: 0, rated: false });
    act(() => f.current.receive({ type: 'error', code: 'ARENA_BAD_SETTINGS', message: 'an arena needs a name of 2 to 30 bytes', id: sent.id }));
    expect((await screen.findByRole('alert')).textContent).toBe('An arena needs a name of 2 to 30 bytes.');
    // A length the form refuses itself (the browser's own check of min and max aside).
    const button = screen.getByRole('button', { name: 'Create the tournament' }) as HTMLButtonElement;
    await vi.waitFor(() => expect(button.disabled).toBe(false));
    fireEvent.change(screen.getByLabelText('Length (minutes)'), { target: { value: '0' } });
    fireEvent.submit(button.form!);
    await vi.waitFor(() => expect(screen.getByRole('alert').textContent).toBe('Length: a whole number of minutes from 1 to 720.'));
    expect(f.current.sent.filter((m) => m.type === 'arena_create')).toHaveLength(1);
  });

  it('tells a guest that tournaments are for accounts', async () => {
    setup(false);
    await screen.findByRole('table');
    expect(screen.queryByRole('button', { name: /Join/ })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Create the tournament' })).toBeNull();
    expect(screen.getByText(/Tournaments are created and played by accounts/)).toBeTruthy();
  });
});
