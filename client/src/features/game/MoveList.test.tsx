// @vitest-environment jsdom
import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { MoveList } from './MoveList';

afterEach(cleanup);

const SAN = ['e4', 'e5', 'Qh5', 'Nc6', 'Bc4', 'Nf6', 'Qxf7#'];

describe('MoveList', () => {
  it('marks the judged moves of an analysed game with their symbol, and names them', () => {
    const onView = vi.fn();
    render(<MoveList san={SAN} viewPly={7} onView={onView} marks={[undefined, undefined, 'inaccuracy', undefined, 'mistake', undefined, 'blunder']} />);
    const move = screen.getByRole('button', { name: '3... Nf6, blunder' });
    expect(move.textContent).toBe('Nf6??');
    expect(move.querySelector('.glyph.blunder')).toBeTruthy();
    expect(screen.getByRole('button', { name: '1... e5, inaccuracy' }).textContent).toBe('e5?!');
    expect(screen.getByRole('button', { name: '2... Nc6, mistake' }).textContent).toBe('Nc6?');
    expect(screen.getByRole('button', { name: '3. Bc4' }).textContent).toBe('Bc4');
    fireEvent.click(move);
    expect(onView).toHaveBeenCalledWith(6);
  });
});
