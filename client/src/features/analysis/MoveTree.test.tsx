// @vitest-environment jsdom
import { cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import { useState } from 'react';
import { afterEach, describe, expect, it } from 'vitest';
import { MoveTree } from './MoveTree';
import { treeFromPgn } from './pgn';
import type { MoveTree as Tree } from './tree';

afterEach(cleanup);

function Harness({ start }: { start: Tree }) {
  const [tree, setTree] = useState(start);
  return (
    <MoveTree tree={tree} onChange={setTree} />
  );
}

function show(pgn: string) {
  const r = treeFromPgn(pgn);
  if ('error' in r) throw new Error(r.error);
  render(<Harness start={r.tree} />);
}

const moves = () => screen.getByRole('group', { name: 'Moves' });
const current = () => moves().querySelector('[aria-current="true"]')?.getAttribute('aria-label');

describe('MoveTree', () => {
  it('shows numbered moves, variations in parentheses and comments; the move shown is current', () => {
    show('1. e4 e5 (1... c5 {Sicilian} 2. Nf3 (2. Nc3)) 2. Nf3 *');
    expect(moves().textContent).toBe('1.e4e51…c5Sicilian2.Nf32.Nc32.Nf3');
    const variation = within(moves()).getAllByRole('group', { name: 'Variation' })[0];
    expect(within(variation).getAllByRole('button').map((b) => b.getAttribute('aria-label'))).toEqual([
      '1… c5',
      '2. Nf3',
      '2. Nc3',
    ]);
    expect(current()).toBe('2. Nf3');
    expect(screen.getByRole('button', { name: 'Next move' })).toHaveProperty('disabled', true);
  });

  it('goes to a clicked move, browses, promotes a variation and deletes it', () => {
    show('1. e4 e5 (1... c5 2. Nf3) 2. Nf3 *');
    const mainLine = () =>
      [...moves().children].filter((c) => c.matches('.tree-move')).map((c) => c.querySelector('button')!.getAttribute('aria-label'));
    fireEvent.click(screen.getByRole('button', { name: '1… c5' }));
    expect(current()).toBe('1… c5');
    expect(screen.getByRole('button', { name: 'Make main line' })).toHaveProperty('disabled', false);
    fireEvent.click(screen.getByRole('button', { name: 'Next move' }));
    expect(current()).toBe('2. Nf3');
    fireEvent.click(screen.getByRole('button', { name: 'Make main line' }));
    expect(mainLine()).toEqual(['1. e4', '1… c5', '2. Nf3']);
    expect(screen.getByRole('button', { name: 'Make main line' })).toHaveProperty('disabled', true);
    fireEvent.click(screen.getByRole('button', { name: '1… e5' }));
    fireEvent.click(screen.getByRole('button', { name: 'Delete from here' }));
    expect(current()).toBe('1. e4');
    expect(within(moves()).queryAllByRole('group', { name: 'Variation' })).toHaveLength(0);
    fireEvent.click(screen.getByRole('button', { name: 'First position' }));
    expect(current()).toBeUndefined();
    expect(screen.getByRole('button', { name: 'Delete from here' })).toHaveProperty('disabled', true);
    fireEvent.click(screen.getByRole('button', { name: 'Last move' }));
    expect(current()).toBe('2. Nf3');
  });
});
