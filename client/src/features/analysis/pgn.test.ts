import { describe, expect, it } from 'vitest';
import { treeFromPgn } from './pgn';
import { moveName, treeCurrent, treeMainLine, treeStartFen, type MoveTree } from './tree';

function loaded(text: string): MoveTree {
  const r = treeFromPgn(text);
  if ('error' in r) throw new Error(r.error);
  return r.tree;
}
const main = (tree: MoveTree) => treeMainLine(tree).map((id) => tree.nodes[id].san);

describe('PGN into the move tree', () => {
  it('reads tags, move numbers, comments, NAGs, suffixes and nested variations', () => {
    const r = treeFromPgn(`[Event "Casual"]
[White "Ann \\"A\\" Smith"]
[Result "*"]

1. e4 {the best} e5 $1 (1... c5 2. Nf3 (2. Nc3 Nc6) d6; Sicilian
) 2.Nf3 Nc6!? (2... d6 {Philidor}) 3. Bb5 a6 *`);
    if ('error' in r) throw new Error(r.error);
    const { tree, headers } = r;
    expect(headers.Event).toBe('Casual');
    expect(headers.White).toBe('Ann "A" Smith');
    expect(main(tree)).toEqual(['e4', 'e5', 'Nf3', 'Nc6', 'Bb5', 'a6']);
    expect(treeCurrent(tree).san).toBe('a6');
    const [e4, e5, nf3] = treeMainLine(tree).map((id) => tree.nodes[id]);
    expect(e4.comment).toBe('the best');
    expect(e4.children.map((c) => tree.nodes[c].san)).toEqual(['e5', 'c5']);
    const c5 = tree.nodes[e4.children[1]];
    const sicilianNf3 = tree.nodes[c5.children[0]];
    expect(c5.children.map((c) => tree.nodes[c].san)).toEqual(['Nf3', 'Nc3']);
    expect(sicilianNf3.children.map((c) => tree.nodes[c].san)).toEqual(['d6']);
    expect(tree.nodes[sicilianNf3.children[0]].comment).toBe('Sicilian');
    expect(tree.nodes[tree.nodes[c5.children[1]].children[0]].san).toBe('Nc6');
    expect(nf3.children.map((c) => moveName(tree.nodes[c]))).toEqual(['2… Nc6', '2… d6']);
    expect(e5.children).toHaveLength(1);
  });

  it('starts from the FEN tag, and reads castling written with zeros', () => {
    const tree = loaded('[SetUp "1"]\n[FEN "r3k2r/8/8/8/8/8/8/R3K2R b KQkq - 3 20"]\n\n20... 0-0-0 21. O-O 1/2-1/2');
    expect(treeStartFen(tree)).toBe('r3k2r/8/8/8/8/8/8/R3K2R b KQkq - 3 20');
    expect(treeMainLine(tree).map((id) => moveName(tree.nodes[id]))).toEqual(['20… O-O-O', '21. O-O']);
  });

  it('reads the first game of several, without the clock and eval commands in its comments', () => {
    const tree = loaded(
      '[Event "One"]\n\n1. e4 { [%clk 0:03:00] } 1... e5 { [%eval 0.2] [%clk 0:02:59] fine } 1-0\n\n[Event "Two"]\n\n1. d4 *',
    );
    expect(main(tree)).toEqual(['e4', 'e5']);
    const [e4, e5] = treeMainLine(tree).map((id) => tree.nodes[id]);
    expect(e4.comment).toBeUndefined();
    expect(e5.comment).toBe('fine');
  });

  it('takes movetext alone, and tags alone', () => {
    expect(main(loaded('1.d4 d5 2.c4'))).toEqual(['d4', 'd5', 'c4']);
    const tags = loaded('[Event "x"]\n[FEN "8/8/8/8/8/8/4k3/4K2R w K - 0 1"]');
    expect(main(tags)).toEqual([]);
    expect(treeStartFen(tags)).toBe('8/8/8/8/8/8/4k3/4K2R w K - 0 1');
  });

  it('says what is wrong with a PGN it cannot read', () => {
    const error = (text: string) => {
      const r = treeFromPgn(text);
      return 'error' in r ? r.error : null;
    };
    expect(error('1. e4 e5 2. Ke3')).toBe('"Ke3" is not a legal move for White at move 2.');
    expect(error('hello world')).toBe('"hello" is not a legal move for White at move 1.');
    expect(error('')).toMatch(/no game/);
    expect(error('1. e4 (1. d4')).toMatch(/never closes/);
    expect(error('1. e4 e5) 2. Nf3')).toMatch(/never opened/);
    expect(error('(1. e4) 1. d4')).toMatch(/no move before/);
    expect(error('[FEN "not a fen"]\n\n1. e4')).toMatch(/FEN tag/);
  });
});
