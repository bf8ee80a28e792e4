/*
 * The playing board: react-chessboard with drag-and-drop and click-click moves, dots on the
 * legal destinations of the selected piece (rings on captures), the last move and a king in
 * check highlighted, a promotion chooser, coordinates and orientation.
 *
 * Moves are checked with chess.js for instant feedback (an illegal drop snaps back); the legal
 * ones go to onMove, and the server decides. While the opponent thinks, the player may queue a
 * premove the same ways (shown on its squares, cancelled by a click elsewhere or Escape); the
 * page plays it when the turn comes, if it is still legal. Every square carries an accessible
 * label such as "e4, white knight".
 */
import { useEffect, useMemo, useState, type CSSProperties, type ReactNode } from 'react';
import { Chessboard, defaultPieces, type PieceDropHandlerArgs, type SquareHandlerArgs } from 'react-chessboard';
import {
  isPromotion,
  legalDestinations,
  premoveDestinations,
  tryMove,
  type LocalMove,
  type Premove,
  type PromotionPiece,
} from '../../lib/chess';
import type { Color } from '../../net/protocol';

export interface BoardProps {
  fen: string;
  orientation: Color;
  /** The colour the user may move now, or null (spectator, history view, not their turn). */
  movable: Color | null;
  /** The colour that may queue a premove now (its opponent is to move), or null. */
  premoveColor?: Color | null;
  premove?: Premove | null;
  onPremove?: (premove: Premove | null) => void;
  lastMove: { from: string; to: string } | null;
  checkSquare: string | null;
  onMove: (move: LocalMove) => void;
  label: string;
}

const PIECE_NAMES: Record<string, string> = {
  p: 'pawn',
  n: 'knight',
  b: 'bishop',
  r: 'rook',
  q: 'queen',
  k: 'king',
};

const LAST_MOVE = 'rgba(155, 199, 0, 0.41)';
const SELECTED = 'rgba(20, 85, 30, 0.5)';
const PREMOVE = 'rgba(20, 30, 85, 0.45)';
const DOT = 'radial-gradient(circle, rgba(20, 85, 30, 0.5) 19%, transparent 20%)';
const RING = 'radial-gradient(transparent 0%, transparent 79%, rgba(20, 85, 30, 0.35) 80%)';
const CHECK =
  'radial-gradient(ellipse at center, rgb(255, 0, 0) 0%, rgb(231, 0, 0) 25%, rgba(169, 0, 0, 0) 89%, rgba(158, 0, 0, 0) 100%)';

export function Board({
  fen,
  orientation,
  movable,
  premoveColor = null,
  premove = null,
  onPremove,
  lastMove,
  checkSquare,
  onMove,
  label,
}: BoardProps) {
  const [selected, setSelected] = useState<string | null>(null);
  const [promotion, setPromotion] = useState<{ from: string; to: string } | null>(null);
  // Whose pieces the user handles now: to move, or to premove.
  const actor = movable ?? (onPremove ? premoveColor : null);

  // A new position (a move played, the history browsed) clears the selection.
  useEffect(() => {
    setSelected(null);
    setPromotion(null);
  }, [fen, movable, actor]);

  const destinations = useMemo(() => {
    if (!selected || !actor) return [];
    return movable ? legalDestinations(fen, selected) : premoveDestinations(fen, selected, actor);
  }, [fen, selected, movable, actor]);

  const pieces = useMemo(() => piecesOf(fen), [fen]);

  const attempt = (from: string, to: string): boolean => {
    if (!movable && actor && from !== to) {
      const ok = premoveDestinations(fen, from, actor).some((d) => d.to === to);
      setSelected(null);
      onPremove?.(ok ? { from, to } : null);
      return false; // the piece waits on its square, the premove shows on the squares
    }
    if (!movable || from === to) return false;
    if (isPromotion(fen, from, to)) {
      setPromotion({ from, to });
      return false;
    }
    const move = tryMove(fen, from, to);
    if (!move) return false; // snaps back
    setSelected(null);
    onMove(move);
    return true;
  };

  const ownPiece = (square: string) => actor !== null && pieces[square]?.startsWith(actor) === true;

  const onSquareClick = ({ square }: SquareHandlerArgs) => {
    if (promotion) return;
    if (selected && destinations.some((d) => d.to === square)) {
      attempt(selected, square);
      return;
    }
    if (premove) onPremove?.(null); // a click elsewhere cancels the premove
    if (ownPiece(square)) setSelected(selected === square ? null : square);
    else setSelected(null);
  };

  useEffect(() => {
    if (!premove || !onPremove) return;
    const onKey = (e: KeyboardEvent) => {
      if (e.key === 'Escape') onPremove(null);
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [premove, onPremove]);

  const onPieceDrop = ({ sourceSquare, targetSquare }: PieceDropHandlerArgs): boolean => {
    if (!targetSquare) return false;
    return attempt(sourceSquare, targetSquare);
  };

  const squareStyles = useMemo(() => {
    const layers: Record<string, string[]> = {};
    const add = (sq: string, bg: string) => (layers[sq] ??= []).push(bg);
    for (const d of destinations) add(d.to, d.capture ? RING : DOT);
    if (checkSquare) add(checkSquare, CHECK);
    if (selected) add(selected, `linear-gradient(${SELECTED}, ${SELECTED})`);
    if (premove) {
      add(premove.from, `linear-gradient(${PREMOVE}, ${PREMOVE})`);
      add(premove.to, `linear-gradient(${PREMOVE}, ${PREMOVE})`);
    }
    if (lastMove) {
      add(lastMove.from, `linear-gradient(${LAST_MOVE}, ${LAST_MOVE})`);
      add(lastMove.to, `linear-gradient(${LAST_MOVE}, ${LAST_MOVE})`);
    }
    const styles: Record<string, CSSProperties> = {};
    for (const [sq, bgs] of Object.entries(layers)) styles[sq] = { background: bgs.join(', ') };
    return styles;
  }, [destinations, checkSquare, selected, lastMove, premove]);

  const squareRenderer = ({ square, children }: SquareHandlerArgs & { children?: ReactNode }) => {
    const piece = pieces[square];
    const dest = destinations.find((d) => d.to === square);
    const premoved = premove && (premove.from === square || premove.to === square);
    const text = `${square}, ${piece ?? 'empty'}${checkSquare === square ? ', in check' : ''}${
      dest ? ', legal move' : ''
    }${selected === square ? ', selected' : ''}${premoved ? ', premove' : ''}`;
    return (
      <div
        className="square-inner"
        aria-label={text}
        data-dest={dest ? (dest.capture ? 'capture' : 'move') : undefined}
        data-last={lastMove && (lastMove.from === square || lastMove.to === square) ? '' : undefined}
        style={{ width: '100%', height: '100%', ...squareStyles[square] }}
      >
        {children}
      </div>
    );
  };

  return (
    <div className="board-wrap" role="group" aria-label={label}>
      <Chessboard
        options={{
          id: 'main',
          position: fen,
          boardOrientation: orientation,
          allowDragging: actor !== null && !promotion,
          allowDrawingArrows: true,
          animationDurationInMs: 200,
          // pieceType is "wP", "bK", ...: the first letter is the colour.
          canDragPiece: ({ piece }) => actor !== null && piece.pieceType[0] === actor[0],
          onPieceDrag: ({ square }) => {
            if (square) setSelected(square);
          },
          onPieceDrop,
          onSquareClick,
          squareStyles,
          squareRenderer,
        }}
      />
      {promotion && movable && (
        <PromotionChooser
          color={movable}
          onChoose={(piece) => {
            const { from, to } = promotion;
            setPromotion(null);
            const move = tryMove(fen, from, to, piece);
            if (move) onMove(move);
          }}
          onCancel={() => setPromotion(null)}
        />
      )}
    </div>
  );
}

/** "e4" -> "white knight" for every occupied square. */
function piecesOf(fen: string): Record<string, string> {
  const out: Record<string, string> = {};
  const rows = fen.split(' ')[0].split('/');
  rows.forEach((row, r) => {
    let file = 0;
    for (const ch of row) {
      if (/\d/.test(ch)) {
        file += Number(ch);
        continue;
      }
      const square = `${'abcdefgh'[file]}${8 - r}`;
      const color = ch === ch.toUpperCase() ? 'white' : 'black';
      out[square] = `${color} ${PIECE_NAMES[ch.toLowerCase()] ?? 'piece'}`;
      file++;
    }
  });
  return out;
}

const PROMOTION_PIECES: { piece: PromotionPiece; name: string }[] = [
  { piece: 'q', name: 'queen' },
  { piece: 'n', name: 'knight' },
  { piece: 'r', name: 'rook' },
  { piece: 'b', name: 'bishop' },
];

function PromotionChooser({
  color,
  onChoose,
  onCancel,
}: {
  color: Color;
  onChoose: (piece: PromotionPiece) => void;
  onCancel: () => void;
}) {
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (e.key === 'Escape') onCancel();
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [onCancel]);
  const prefix = color === 'white' ? 'w' : 'b';
  return (
    <div className="promotion" role="dialog" aria-modal="true" aria-label="Choose a piece to promote to">
      <div className="promotion-pieces">
        {PROMOTION_PIECES.map(({ piece, name }, i) => {
          const Svg = defaultPieces[`${prefix}${piece.toUpperCase()}`];
          return (
            <button
              key={piece}
              type="button"
              autoFocus={i === 0}
              aria-label={`Promote to ${name}`}
              onClick={() => onChoose(piece)}
            >
              <Svg />
            </button>
          );
        })}
      </div>
      <button type="button" className="promotion-cancel" onClick={onCancel}>
        Cancel
      </button>
    </div>
  );
}
