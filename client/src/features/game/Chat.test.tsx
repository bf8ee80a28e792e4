// @vitest-environment jsdom
/* The game's chat: quick messages for the players, the switch kept in the browser. */
import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { Chat } from './Chat';

afterEach(() => {
  cleanup();
  window.localStorage.clear();
});

const line = { room: 'players' as const, from: { id: 'p2', name: 'Ben' }, text: 'hi there', time: 1 };

describe('Chat', () => {
  it('sends a quick message in one click (players only)', () => {
    const send = vi.fn(async () => true);
    render(<Chat lines={[line]} room="players" onSend={send} enabled />);
    fireEvent.click(screen.getByRole('button', { name: 'Good game' }));
    expect(send).toHaveBeenCalledWith('Good game');
    cleanup();
    render(<Chat lines={[]} room="spectators" onSend={send} enabled />);
    expect(screen.queryByRole('group', { name: 'Quick messages' })).toBeNull();
  });

  it('can be switched off, and stays off in this browser', () => {
    const send = vi.fn(async () => true);
    render(<Chat lines={[line]} room="players" onSend={send} enabled />);
    expect(screen.getByText('hi there')).toBeTruthy();
    fireEvent.click(screen.getByRole('checkbox', { name: 'Show the chat' }));
    expect(screen.queryByText('hi there')).toBeNull();
    expect(screen.queryByRole('textbox')).toBeNull();
    cleanup();
    render(<Chat lines={[line]} room="players" onSend={send} enabled />);
    expect(screen.queryByText('hi there')).toBeNull();
    fireEvent.click(screen.getByRole('checkbox', { name: 'Show the chat' }));
    expect(screen.getByText('hi there')).toBeTruthy();
  });
});
