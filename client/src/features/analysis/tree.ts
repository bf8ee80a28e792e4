/*
 * The analysis board's move tree: a start position and the moves played from it, with
 * variations. Every node is a position (its FEN) reached by one move (SAN and UCI) from its
 * parent; a node's first child is its main line, the others are variations. The tree also
 * holds the node shown (`current`).
 *
 * Pure and immutable: every function returns a new tree (nodes are shared where unchanged), so
 * the page keeps one in its state. Nodes are kept by id in a record; ids are never reused.
 *
 * Playing a move at a node that already has it goes to that child; otherwise the move is added
 * as the node's last child (its main line when it is the first). Navigation: next (the main
 * line's child), previous (the parent), first (the root), last (the end of the main line from
 * the current node), or any node by id. A variation may be deleted (the node and all after it)
 * or made the main line (it and each of its ancestors become their parent's first child).
 */
import { playUci, type LocalMove } from '../../lib/chess';

export interface TreeNode {
  id: string;
  /** The position at this node. */
  fen: string;
  /** The move that led here (null at the root). */
  san: string | null;
  uci: string | null;
  /** The move's number and whether White made it (from the parent's FEN). */
  moveNumber: number;
  white: boolean;
  parent: string | null;
  /** The next moves: [0] the main line, the rest variations. */
  children: string[];
  /** A comment from a PGN, if any. */
  comment?: string;
}

export interface MoveTree {
  root: string;
  nodes: Readonly<Record<string, TreeNode>>;
  /** The node shown. */
  current: string;
  /** The next node's id number. */
  nextId: number;
}

const ROOT_ID = 'n0';

/** A tree with just its start position, shown. */
export function treeFrom(startFen: string): MoveTree {
  const root: TreeNode = {
    id: ROOT_ID,
    fen: startFen,
    san: null,
    uci: null,
    moveNumber: 0,
    white: false,
    parent: null,
    children: [],
  };
  return { root: ROOT_ID, nodes: { [ROOT_ID]: root }, current: ROOT_ID, nextId: 1 };
}

export function treeNode(tree: MoveTree, id: string): TreeNode {
  return tree.nodes[id];
}

export function treeCurrent(tree: MoveTree): TreeNode {
  return tree.nodes[tree.current];
}

export function treeStartFen(tree: MoveTree): string {
  return tree.nodes[tree.root].fen;
}

/**
 * Plays `move` (made on the node `at`'s position; default: the current node): goes to the
 * child with the same move, or adds it as a new child (the main line when it is the first).
 * The new or found child is shown.
 */
export function treePlay(tree: MoveTree, move: LocalMove, at: string = tree.current): MoveTree {
  const parent = tree.nodes[at];
  if (!parent) return tree;
  const existing = parent.children.find((c) => tree.nodes[c].uci === move.uci);
  if (existing) return { ...tree, current: existing };
  const fields = parent.fen.split(' ');
  const id = `n${tree.nextId}`;
  const node: TreeNode = {
    id,
    fen: move.fen,
    san: move.san,
    uci: move.uci,
    moveNumber: Number(fields[5]) || 1,
    white: fields[1] !== 'b',
    parent: at,
    children: [],
  };
  return {
    ...tree,
    nodes: { ...tree.nodes, [id]: node, [at]: { ...parent, children: [...parent.children, id] } },
    current: id,
    nextId: tree.nextId + 1,
  };
}

/** Plays UCI moves one after another from the node `at`; stops at the first illegal one. */
export function treePlayUci(tree: MoveTree, uciMoves: readonly string[], at: string = tree.current): MoveTree {
  let t = { ...tree, current: at };
  for (const uci of uciMoves) {
    const move = playUci(treeCurrent(t).fen, uci);
    if (!move) break;
    t = treePlay(t, move);
  }
  return t;
}

/** Sets a comment on a node (empty: none). */
export function treeComment(tree: MoveTree, id: string, comment: string): MoveTree {
  const node = tree.nodes[id];
  if (!node) return tree;
  const { comment: _old, ...rest } = node;
  const next = comment ? { ...rest, comment } : rest;
  return { ...tree, nodes: { ...tree.nodes, [id]: next } };
}

/** Shows the node `id` (unknown ids: no change). */
export function treeGo(tree: MoveTree, id: string): MoveTree {
  return tree.nodes[id] && id !== tree.current ? { ...tree, current: id } : tree;
}

/** The main line's next move from the current node. */
export function treeNext(tree: MoveTree): MoveTree {
  const next = treeCurrent(tree).children[0];
  return next ? treeGo(tree, next) : tree;
}

export function treePrev(tree: MoveTree): MoveTree {
  const parent = treeCurrent(tree).parent;
  return parent ? treeGo(tree, parent) : tree;
}

export function treeFirst(tree: MoveTree): MoveTree {
  return treeGo(tree, tree.root);
}

/** The end of the line the current node is on (its main continuation). */
export function treeLast(tree: MoveTree): MoveTree {
  let id = tree.current;
  while (tree.nodes[id].children.length) id = tree.nodes[id].children[0];
  return treeGo(tree, id);
}

/** The ids from the root to `id`, both included. */
export function treePath(tree: MoveTree, id: string = tree.current): string[] {
  const path: string[] = [];
  for (let n: TreeNode | undefined = tree.nodes[id]; n; n = n.parent ? tree.nodes[n.parent] : undefined) path.push(n.id);
  return path.reverse();
}

/** The main line's node ids after the root (the root's first child, its first child, ...). */
export function treeMainLine(tree: MoveTree): string[] {
  const ids: string[] = [];
  for (let n = tree.nodes[tree.root]; n.children.length; n = tree.nodes[n.children[0]]) ids.push(n.children[0]);
  return ids;
}

/** Whether the node lies on the main line (the root does). */
export function treeOnMainLine(tree: MoveTree, id: string): boolean {
  return treePath(tree, id).every((n, i, path) => i === 0 || tree.nodes[path[i - 1]].children[0] === n);
}

/** The UCI moves from the root to `id`. */
export function treeUciTo(tree: MoveTree, id: string = tree.current): string[] {
  return treePath(tree, id)
    .slice(1)
    .map((n) => tree.nodes[n].uci ?? '');
}

/**
 * Deletes the node `id` and everything after it (the root cannot be deleted). When the shown
 * node was among them, its parent is shown.
 */
export function treeDelete(tree: MoveTree, id: string): MoveTree {
  const node = tree.nodes[id];
  if (!node || node.parent === null) return tree;
  const parent = tree.nodes[node.parent];
  const nodes: Record<string, TreeNode> = { ...tree.nodes };
  const gone = [id];
  for (let i = 0; i < gone.length; i++) gone.push(...nodes[gone[i]].children);
  for (const g of gone) delete nodes[g];
  nodes[parent.id] = { ...parent, children: parent.children.filter((c) => c !== id) };
  const current = nodes[tree.current] ? tree.current : parent.id;
  return { ...tree, nodes, current };
}

/**
 * Makes the line through `id` the main line: the node and each of its ancestors become their
 * parent's first child (the other children keep their order).
 */
export function treePromote(tree: MoveTree, id: string): MoveTree {
  if (!tree.nodes[id]) return tree;
  const nodes: Record<string, TreeNode> = { ...tree.nodes };
  for (let n = nodes[id]; n.parent !== null; n = nodes[n.parent]) {
    const parent = nodes[n.parent];
    if (parent.children[0] !== n.id) {
      nodes[parent.id] = { ...parent, children: [n.id, ...parent.children.filter((c) => c !== n.id)] };
    }
  }
  return { ...tree, nodes };
}

/** A move's name as people say it: "12. Nf3" for White's, "12… Nf6" for Black's. */
export function moveName(node: TreeNode): string {
  return `${node.moveNumber}${node.white ? '.' : '…'} ${node.san ?? ''}`;
}
