/*
 * The analysis board (/analysis, address in url.ts): a move tree (tree.ts) over a start position,
 * set by the address (a game's moves at any ply), by FEN, by a pasted PGN (pgn.ts, variations
 * included) or by the board editor (/editor). Moves played on the board for either side go to
 * the next move when it is the same, or start a variation; the move list (MoveTree) shows the
 * variations and browses them (also ←, →, Home and End anywhere on the page but in a text field
 * or on the board, whose arrow keys are its own). The analysis panel analyses the position shown
 * with the server's engine (multi-PV); its best move is drawn on the board as an arrow.
 */
import { useEffect, useMemo, useState, type FormEvent } from 'react';
import { Link } from '../../app/router';
import { Board, type BoardArrow } from '../../components/Board';
import { Icon } from '../../components/Icon';
import { checkedKingSquare, fenTurn, normaliseFen, START_FEN } from '../../lib/chess';
import { opposite, type Color } from '../../net/protocol';
import { useBoardAppearance } from '../settings';
import { AnalysisPanel } from './AnalysisPanel';
import { useAnalysisState } from './hooks';
import { MoveTree } from './MoveTree';
import { OpeningName } from './OpeningName';
import { treeFromPgn } from './pgn';
import { analysisBestMove } from './state';
import {
  treeCurrent,
  treeFirst,
  treeFrom,
  treeLast,
  treeNext,
  treePlay,
  treePrev,
  treeStartFen,
  treeUciTo,
  type MoveTree as Tree,
} from './tree';
import { treeFromSearch } from './url';

const BEST_MOVE_COLOR = 'rgba(0, 110, 220, 0.75)';

/** What a history key does to the tree, or null for another key. */
function treeKey(key: string): ((t: Tree) => Tree) | null {
  if (key === 'ArrowLeft') return treePrev;
  if (key === 'ArrowRight') return treeNext;
  if (key === 'Home') return treeFirst;
  if (key === 'End') return treeLast;
  return null;
}

export function AnalysisBoardPage() {
  const [start] = useState(() => treeFromSearch(window.location.search));
  const [tree, setTree] = useState<Tree>(start.tree);
  const [orientation, setOrientation] = useState<Color>(start.orientation);
  const [fenText, setFenText] = useState('');
  const [fenError, setFenError] = useState<string | null>(null);
  const [pgnText, setPgnText] = useState('');
  const [pgnError, setPgnError] = useState<string | null>(null);
  const node = treeCurrent(tree);
  const fen = node.fen;
  const lastMove = node.uci ? { from: node.uci.slice(0, 2), to: node.uci.slice(2, 4) } : null;
  const appearance = useBoardAppearance();

  const view = useAnalysisState((v) => v);
  const arrows = useMemo<BoardArrow[]>(() => {
    const best = analysisBestMove(view, fen);
    return best ? [{ from: best.from, to: best.to, color: BEST_MOVE_COLOR, label: `best move ${best.san}` }] : [];
  }, [view, fen]);

  // ←, →, Home and End browse the moves (unless typing; the board keeps its own keys).
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      const t = e.target as HTMLElement | null;
      if (e.altKey || e.ctrlKey || e.metaKey || e.shiftKey) return;
      if (t && (t.isContentEditable || ['INPUT', 'TEXTAREA', 'SELECT'].includes(t.tagName))) return;
      const step = treeKey(e.key);
      if (!step) return;
      e.preventDefault();
      setTree(step);
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, []);

  const setPosition = (e: FormEvent) => {
    e.preventDefault();
    const next = normaliseFen(fenText);
    if (!next) {
      setFenError('This is not a FEN the board can read.');
      return;
    }
    setFenError(null);
    setTree(treeFrom(next));
    setFenText('');
  };
  const loadPgn = (e: FormEvent) => {
    e.preventDefault();
    const loaded = treeFromPgn(pgnText);
    if ('error' in loaded) {
      setPgnError(loaded.error);
      return;
    }
    setPgnError(null);
    setTree(loaded.tree);
    setPgnText('');
  };
  return (
    <div className="game-layout">
      <div className="board-col">
        <Board
          fen={fen}
          orientation={orientation}
          movable={fenTurn(fen)}
          lastMove={lastMove}
          checkSquare={checkedKingSquare(fen)}
          onMove={(m) => setTree((t) => treePlay(t, m))}
          label={`Analysis board, ${orientation} at the bottom, ${fenTurn(fen)} to move`}
          appearance={appearance}
          arrows={arrows}
        />
      </div>
      <aside className="game-side">
        <section className="panel" aria-labelledby="board-title">
          <h1 id="board-title">Analysis board</h1>
          <p className="hint">
            Play moves for both sides: a move other than the next one starts a variation. ← → Home End browse the moves.
          </p>
          <OpeningName startFen={treeStartFen(tree)} moves={treeUciTo(tree)} />
          <MoveTree tree={tree} onChange={setTree} />
          <div className="button-row">
            <button type="button" onClick={() => setTree(treeFrom(START_FEN))}>
              Start position
            </button>
            <button type="button" onClick={() => setOrientation(opposite)} aria-label="Flip the board">
              <Icon name="flip" /> Flip
            </button>
            <Link className="button" to={`/editor?fen=${encodeURIComponent(fen)}`}>
              Board editor
            </Link>
          </div>
        </section>
        <AnalysisPanel fen={fen} />
        <section className="panel" aria-label="Position and PGN">
          <div className="stack">
            <label htmlFor="board-fen">Current FEN</label>
            <input id="board-fen" readOnly value={fen} onFocus={(e) => e.target.select()} spellCheck={false} />
          </div>
          <form onSubmit={setPosition} className="stack">
            <label htmlFor="board-set-fen">Set a position (FEN)</label>
            <input
              id="board-set-fen"
              value={fenText}
              onChange={(e) => setFenText(e.target.value)}
              spellCheck={false}
              autoComplete="off"
            />
            {fenError && (
              <p className="form-error" role="alert">
                {fenError}
              </p>
            )}
            <button type="submit" disabled={!fenText.trim()}>
              Set position
            </button>
          </form>
          <form onSubmit={loadPgn} className="stack">
            <label htmlFor="board-pgn">Paste a PGN</label>
            <textarea
              id="board-pgn"
              rows={4}
              value={pgnText}
              onChange={(e) => setPgnText(e.target.value)}
              spellCheck={false}
              aria-describedby="board-pgn-hint"
            />
            <p id="board-pgn-hint" className="hint">
              Tag pairs (FEN too), comments and variations are read; NAGs are left out.
            </p>
            {pgnError && (
              <p className="form-error" role="alert">
                {pgnError}
              </p>
            )}
            <button type="submit" disabled={!pgnText.trim()}>
              Load PGN
            </button>
          </form>
        </section>
      </aside>
    </div>
  );
}
