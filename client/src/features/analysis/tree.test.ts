import { describe, expect, it } from 'vitest';
import { playUci, START_FEN } from '../../lib/chess';
import {
  moveName,
  treeCurrent,
  treeDelete,
  treeFirst,
  treeFrom,
  treeGo,
  treeLast,
  treeMainLine,
  treeNext,
  treeOnMainLine,
  treePath,
  treePlay,
  treePlayUci,
  treePrev,
  treePromote,
  treeUciTo,
  type MoveTree,
} from './tree';

/** The SAN of the nodes `ids`. */
const sans = (tree: MoveTree, ids: string[]) => ids.map((id) => tree.nodes[id].san);
const play = (tree: MoveTree, uci: string) => treePlay(tree, playUci(treeCurrent(tree).fen, uci)!);

describe('analysis move tree', () => {
  it('plays a main line with numbers and names from the start position', () => {
    const tree = treePlayUci(treeFrom(START_FEN), ['e2e4', 'e7e5', 'g1f3']);
    expect(sans(tree, treeMainLine(tree))).toEqual(['e4', 'e5', 'Nf3']);
    expect(treeMainLine(tree).map((id) => moveName(tree.nodes[id]))).toEqual(['1. e4', '1… e5', '2. Nf3']);
    expect(treeCurrent(tree).fen).toBe('rnbqkbnr/pppp1ppp/8/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R b KQkq - 1 2');
    expect(treeUciTo(tree)).toEqual(['e2e4', 'e7e5', 'g1f3']);
  });

  it('numbers moves from a FEN with Black to move', () => {
    const tree = treePlayUci(treeFrom('4k3/8/8/8/8/8/4P3/4K3 b - - 0 40'), ['e8d7', 'e2e4']);
    expect(treeMainLine(tree).map((id) => moveName(tree.nodes[id]))).toEqual(['40… Kd7', '41. e4']);
  });

  it('stops at the first illegal UCI move', () => {
    const tree = treePlayUci(treeFrom(START_FEN), ['e2e4', 'e2e4', 'e7e5']);
    expect(treeMainLine(tree)).toHaveLength(1);
  });

  it('goes to a move already there instead of adding it, and adds a variation otherwise', () => {
    let tree = treePlayUci(treeFrom(START_FEN), ['e2e4', 'e7e5', 'g1f3']);
    const size = Object.keys(tree.nodes).length;
    tree = treePrev(treePrev(tree));
    tree = play(tree, 'e7e5');
    expect(Object.keys(tree.nodes)).toHaveLength(size);
    expect(treeCurrent(tree).san).toBe('e5');
    tree = treePrev(tree);
    tree = play(tree, 'c7c5');
    expect(Object.keys(tree.nodes)).toHaveLength(size + 1);
    const e4 = tree.nodes[treeMainLine(tree)[0]];
    expect(sans(tree, e4.children)).toEqual(['e5', 'c5']);
    // The main line is unchanged; the variation is not on it.
    expect(sans(tree, treeMainLine(tree))).toEqual(['e4', 'e5', 'Nf3']);
    expect(treeOnMainLine(tree, tree.current)).toBe(false);
    expect(treeOnMainLine(tree, treeMainLine(tree)[2])).toBe(true);
    expect(moveName(treeCurrent(tree))).toBe('1… c5');
  });

  it('navigates: next follows the main line, last goes to the end of the line shown, first to the start', () => {
    let tree = treePlayUci(treeFrom(START_FEN), ['e2e4', 'e7e5', 'g1f3']);
    tree = treeFirst(tree);
    expect(tree.current).toBe(tree.root);
    expect(treePrev(tree)).toBe(tree);
    tree = treeNext(tree);
    expect(treeCurrent(tree).san).toBe('e4');
    tree = play(tree, 'c7c5');
    tree = play(tree, 'g1f3');
    tree = treePrev(tree);
    tree = treeLast(tree);
    expect(treeCurrent(tree).san).toBe('Nf3');
    expect(sans(tree, treePath(tree).slice(1))).toEqual(['e4', 'c5', 'Nf3']);
    expect(treeNext(tree)).toBe(tree);
    const end = treeMainLine(tree)[2];
    expect(treeGo(tree, end).current).toBe(end);
    expect(treeGo(tree, 'nope')).toBe(tree);
  });

  it('deletes a variation with everything after it; the shown move falls back to its parent', () => {
    let tree = treePlayUci(treeFrom(START_FEN), ['e2e4', 'e7e5']);
    tree = treePrev(tree);
    tree = play(tree, 'c7c5');
    const c5 = tree.current;
    tree = play(tree, 'g1f3');
    const nodes = Object.keys(tree.nodes).length;
    tree = treeDelete(tree, c5);
    expect(Object.keys(tree.nodes)).toHaveLength(nodes - 2);
    expect(treeCurrent(tree).san).toBe('e4');
    expect(sans(tree, treeCurrent(tree).children)).toEqual(['e5']);
    expect(treeDelete(tree, tree.root)).toBe(tree);
    // Deleting elsewhere keeps the shown move.
    tree = treeLast(tree);
    const shown = tree.current;
    tree = treeFirst(treePlayUci(treeFirst(tree), ['d2d4']));
    tree = treeGo(tree, shown);
    tree = treeDelete(tree, tree.nodes[tree.root].children[1]);
    expect(tree.current).toBe(shown);
    expect(tree.nodes[tree.root].children).toHaveLength(1);
  });

  it('promotes a variation to the main line, its ancestors too', () => {
    let tree = treePlayUci(treeFrom(START_FEN), ['e2e4', 'e7e5', 'g1f3', 'b8c6']);
    tree = treeGo(tree, treeMainLine(tree)[1]);
    tree = play(tree, 'f2f4'); // 2. f4 beside 2. Nf3
    tree = play(tree, 'e5f4');
    tree = play(tree, 'g1f3');
    const deep = tree.current;
    tree = treePrev(tree);
    tree = play(tree, 'f1c4'); // 3. Bc4 beside 3. Nf3 inside the variation
    tree = treePromote(tree, deep);
    expect(sans(tree, treeMainLine(tree))).toEqual(['e4', 'e5', 'f4', 'exf4', 'Nf3']);
    const e5 = tree.nodes[treeMainLine(tree)[1]];
    expect(sans(tree, e5.children)).toEqual(['f4', 'Nf3']);
    const exf4 = tree.nodes[treeMainLine(tree)[3]];
    expect(sans(tree, exf4.children)).toEqual(['Nf3', 'Bc4']);
    // Promoting what is the main line already changes nothing.
    expect(treeMainLine(treePromote(tree, deep))).toEqual(treeMainLine(tree));
  });
});
