// @vitest-environment jsdom
import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { fullGame } from '../../net/fixtures';
import { GameControls } from './GameControls';
import { gameFromFull, type GameState } from './games';
import { MoveList } from './MoveList';

afterEach(cleanup);

function game(over: Partial<Parameters<typeof fullGame>[0]> = {}): GameState {
  return gameFromFull(fullGame({ ply: 4, moves: ['e2e4', 'e7e5', 'g1f3', 'b8c6'], san: ['e4', 'e5', 'Nf3', 'Nc6'], ...over }), 0);
}

function controls(g: GameState, me: 'white' | 'black' = 'white') {
  const command = vi.fn();
  const claim = vi.fn();
  render(<GameControls game={g} me={me} online command={command} claimAbandoned={claim} />);
  return { command, claim };
}

describe('GameControls', () => {
  it('asks before resigning, and can be cancelled', () => {
    const { command } = controls(game());
    fireEvent.click(screen.getByRole('button', { name: 'Resign' }));
    fireEvent.click(screen.getByRole('button', { name: 'Cancel' }));
    expect(command).not.toHaveBeenCalled();
    fireEvent.click(screen.getByRole('button', { name: 'Resign' }));
    fireEvent.click(screen.getByRole('button', { name: 'Yes, resign' }));
    expect(command).toHaveBeenCalledWith('resign');
  });

  it('offers abort only before both sides moved', () => {
    controls(game({ ply: 1, moves: ['e2e4'], san: ['e4'] }));
    expect(screen.getByRole('button', { name: 'Abort' })).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Resign' })).toBeNull();
    cleanup();
    controls(game());
    expect(screen.queryByRole('button', { name: 'Abort' })).toBeNull();
  });

  it('gives the opponent 15 seconds in a game with a clock, not to the computer nor in a daily game', () => {
    const { command } = controls(game());
    fireEvent.click(screen.getByRole('button', { name: 'Give 15 seconds' }));
    expect(command).toHaveBeenCalledWith('give_time');
    cleanup();
    controls(game({ time: 'unlimited', clock: null }));
    expect(screen.queryByRole('button', { name: 'Give 15 seconds' })).toBeNull();
    cleanup();
    controls(game({ black: { id: 'computer-3', name: 'Computer level 3', connected: true, computer: 3 } }));
    expect(screen.queryByRole('button', { name: 'Give 15 seconds' })).toBeNull();
    cleanup();
    // A daily game has no time to give (docs/protocol.md, "Daily games").
    controls(game({ time: { days: 2 }, clock: { white: 172800000, black: 100000000, deadline: 1 } }));
    expect(screen.queryByRole('button', { name: 'Give 15 seconds' })).toBeNull();
  });

  it('answers the opponent’s offers', () => {
    const { command } = controls(game({ offers: { draw: 'black', takeback: 'black', rematch: null } }));
    fireEvent.click(screen.getByRole('button', { name: 'Accept draw' }));
    fireEvent.click(screen.getByRole('button', { name: 'Decline takeback' }));
    expect(command.mock.calls).toEqual([['draw_accept'], ['takeback_decline']]);
  });

  it('shows its own pending offers', () => {
    controls(game({ offers: { draw: 'white', takeback: 'white', rematch: null } }));
    expect((screen.getByRole('button', { name: 'Draw offered…' }) as HTMLButtonElement).disabled).toBe(true);
    expect((screen.getByRole('button', { name: 'Takeback proposed…' }) as HTMLButtonElement).disabled).toBe(true);
  });

  it('lets the player claim a game the opponent left, once allowed', () => {
    const g = game();
    const away = { ...g, black: { ...g.black, connected: false, claimAt: performance.now() - 1 } };
    const { claim } = controls(away);
    fireEvent.click(screen.getByRole('button', { name: 'Claim victory' }));
    expect(claim).toHaveBeenCalledWith('win');
  });

  it('offers a rematch after the game, and a link once it started', () => {
    const ended = { ...game(), status: 'ended' as const, outcome: { result: '1-0' as const, reason: 'resignation' as const, winner: 'white' as const } };
    const { command } = controls(ended);
    fireEvent.click(screen.getByRole('button', { name: 'Rematch' }));
    expect(command).toHaveBeenCalledWith('rematch_offer');
    cleanup();
    controls({ ...ended, rematch: 'g2' });
    expect(screen.getByRole('link', { name: 'Go to the rematch' }).getAttribute('href')).toBe('/game/g2');
  });
});

describe('MoveList', () => {
  it('numbers the moves and marks the one shown', () => {
    const onView = vi.fn();
    render(<MoveList san={['e4', 'e5', 'Nf3']} viewPly={2} onView={onView} />);
    const current = screen.getByRole('button', { name: '1... e5' });
    expect(current.getAttribute('aria-current')).toBe('true');
    fireEvent.click(screen.getByRole('button', { name: '2. Nf3' }));
    fireEvent.click(screen.getByRole('button', { name: 'First position' }));
    fireEvent.click(screen.getByRole('button', { name: 'Next move' }));
    expect(onView.mock.calls).toEqual([[3], [0], [3]]);
  });
});
