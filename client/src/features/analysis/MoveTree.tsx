/*
 * The analysis board's move list (tree.ts): the main line with its move numbers, each
 * variation in parentheses after the move it replaces (nested ones inside), PGN comments after
 * their move. Every move is a button named as people say it ("12. Nf3", "12… Nf6") that shows
 * its position; the one shown has aria-current. Under the list: first, previous, next and last
 * (the parent page also takes ←, →, Home and End), and for the move shown "Make main line" and
 * "Delete from here".
 */
import type { ReactNode } from 'react';
import { Icon } from '../../components/Icon';
import { useCurrentInView } from '../../hooks/useCurrentInView';
import {
  moveName,
  treeDelete,
  treeFirst,
  treeGo,
  treeLast,
  treeNext,
  treeOnMainLine,
  treePrev,
  treePromote,
  type MoveTree as Tree,
  type TreeNode,
} from './tree';

export interface MoveTreeProps {
  tree: Tree;
  /** A change to the tree (a tree.ts function), for the parent to apply to its state. */
  onChange: (change: (tree: Tree) => Tree) => void;
}

export function MoveTree({ tree, onChange }: MoveTreeProps) {
  const listRef = useCurrentInView<HTMLDivElement>([tree.current, tree.nodes]);

  const { nodes } = tree;
  const current = nodes[tree.current];
  const atRoot = current.parent === null;
  const atEnd = current.children.length === 0;

  const move = (node: TreeNode, numbered: boolean) => (
    <span key={node.id} className="tree-move">
      <button
        type="button"
        className="move"
        aria-current={node.id === tree.current ? 'true' : undefined}
        aria-label={moveName(node)}
        onClick={() => onChange((t) => treeGo(t, node.id))}
      >
        {numbered && (
          <span className="tree-number" aria-hidden="true">
            {node.moveNumber}
            {node.white ? '.' : '…'}
          </span>
        )}
        {node.san}
      </button>
      {node.comment && <span className="move-comment">{node.comment}</span>}
    </span>
  );

  /** The line from `first` (a child of `parent`) on, each variation after the move it replaces. */
  const line = (parent: string, first: string): ReactNode[] => {
    const out: ReactNode[] = [];
    let numbered = true;
    let at = parent;
    for (let id: string | undefined = first; id; ) {
      const node: TreeNode = nodes[id];
      out.push(move(node, numbered || node.white));
      numbered = false;
      const siblings = nodes[at].children;
      // A variation's first move's siblings belong to the enclosing line.
      if (siblings[0] === id && siblings.length > 1) {
        for (const alt of siblings.slice(1)) {
          out.push(
            <span key={`v${alt}`} className="variation" role="group" aria-label="Variation">
              {line(at, alt)}
            </span>,
          );
        }
        numbered = true;
      }
      at = id;
      id = node.children[0];
    }
    return out;
  };

  const root = nodes[tree.root];
  return (
    <div className="moves-panel">
      <div className="move-tree" ref={listRef} role="group" aria-label="Moves">
        {root.comment && <span className="move-comment">{root.comment}</span>}
        {root.children.length ? line(root.id, root.children[0]) : <span className="hint">No moves yet.</span>}
      </div>
      <div className="history-nav" role="toolbar" aria-label="Move history">
        <button type="button" aria-label="First position" disabled={atRoot} onClick={() => onChange(treeFirst)}>
          <Icon name="first" />
        </button>
        <button type="button" aria-label="Previous move" disabled={atRoot} onClick={() => onChange(treePrev)}>
          <Icon name="prev" />
        </button>
        <button type="button" aria-label="Next move" disabled={atEnd} onClick={() => onChange(treeNext)}>
          <Icon name="next" />
        </button>
        <button type="button" aria-label="Last move" disabled={atEnd} onClick={() => onChange(treeLast)}>
          <Icon name="last" />
        </button>
      </div>
      <div className="button-row">
        <button
          type="button"
          disabled={atRoot || treeOnMainLine(tree, current.id)}
          onClick={() => onChange((t) => treePromote(t, current.id))}
        >
          Make main line
        </button>
        <button
          type="button"
          disabled={atRoot}
          onClick={() => onChange((t) => treeDelete(t, current.id))}
        >
          Delete from here
        </button>
      </div>
    </div>
  );
}
