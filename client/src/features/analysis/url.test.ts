import { describe, expect, it } from 'vitest';
import { START_FEN } from '../../lib/chess';
import { treeCurrent, treeMainLine } from './tree';
import { analysisUrl, treeFromSearch } from './url';

const search = (url: string) => url.slice(url.indexOf('?'));

describe('the analysis board address', () => {
  it('carries a game\'s moves and ply, and opens there', () => {
    const url = analysisUrl(START_FEN, ['e2e4', 'e7e5', 'g1f3'], 1, 'black');
    expect(url).toBe('/analysis?moves=e2e4%2Ce7e5%2Cg1f3&ply=1&color=black');
    const { tree, orientation } = treeFromSearch(search(url));
    expect(treeMainLine(tree).map((id) => tree.nodes[id].san)).toEqual(['e4', 'e5', 'Nf3']);
    expect(treeCurrent(tree).san).toBe('e4');
    expect(orientation).toBe('black');
  });

  it('opens at the end without a ply, at the start with ply 0, on the FEN asked for', () => {
    expect(treeCurrent(treeFromSearch(search(analysisUrl(START_FEN, ['d2d4', 'd7d5']))).tree).san).toBe('d5');
    const start = treeFromSearch(search(analysisUrl(START_FEN, ['d2d4'], 0))).tree;
    expect(start.current).toBe(start.root);
    const fen = '4k3/8/8/8/8/8/4P3/4K3 b - - 0 1';
    const { tree, orientation } = treeFromSearch(search(analysisUrl(fen)));
    expect(treeCurrent(tree).fen).toBe(fen);
    expect(orientation).toBe('black');
  });

  it('ends the line at a move that is not UCI or not legal, and ignores a FEN it cannot read', () => {
    const { tree } = treeFromSearch('?fen=nonsense&moves=e2e4,junk,e7e5,e7e5,g1f3&ply=9');
    expect(treeMainLine(tree).map((id) => tree.nodes[id].san)).toEqual(['e4', 'e5']);
    expect(treeCurrent(tree).san).toBe('e5');
    expect(tree.nodes[tree.root].fen).toBe(START_FEN);
  });
});
