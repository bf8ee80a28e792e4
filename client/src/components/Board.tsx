/*
 * The playing board: react-chessboard with drag-and-drop and click-click moves, dots on the
 * legal destinations of the selected piece (rings on captures), the last move and a king in
 * check highlighted, a promotion chooser, coordinates and orientation.
 *
 * Moves are checked for instant feedback (an illegal drop snaps back) against the server's
 * `dests` in a live game (castling by dropping the king onto its rook or two squares along),
 * with chess.js on the analysis board; the legal ones go to onMove, and the server decides. While the opponent thinks, the player may queue a
 * premoves the same ways, one after another (the position shows them made, each on its squares;
 * a click elsewhere or Escape cancels them all); the page plays one per turn, while legal. Every square carries an accessible
 * label such as "e4, white knight". What each gesture does is decided in lib/boardInput.ts;
 * this component draws the result. Shared by the game page and the analysis board. The player's
 * settings (features/settings) come in one optional prop, `appearance`: the pieces, the squares'
 * colours, coordinates, the animation's length and auto-queen. Arrows (the analysis board's best
 * move) come in `arrows`, drawn over the pieces and said in the board's description.
 *
 * Keyboard: the board is one tab stop (role "application") with a cursor square, its
 * aria-activedescendant, so screen readers say the square's label as the cursor moves; the keys
 * are lib/boardKeyboard.ts's, and Enter or Space acts as a click on the cursor's square. The
 * pieces react-chessboard makes focusable (dnd-kit's draggables, with its keyboard dragging and
 * its "draggable item" announcements) are made plain again, so the mouse drags as before and
 * the keyboard goes through the board only. A mouse click does not take the focus (the page's
 * own keys stay as they were). Every move the board shows is said in words (lib/speech.ts) in
 * a polite live region.
 */
import {
  useEffect,
  useId,
  useMemo,
  useRef,
  useState,
  type CSSProperties,
  type KeyboardEvent as ReactKeyboardEvent,
  type MouseEvent as ReactMouseEvent,
  type ReactNode,
} from 'react';
import {
  Chessboard,
  defaultPieces,
  type PieceDropHandlerArgs,
  type PieceRenderObject,
  type SquareHandlerArgs,
} from 'react-chessboard';
import {
  BOARD_IDLE,
  boardActor,
  boardAttempt,
  boardClick,
  boardDestinations,
  boardPromote,
  piecesOf,
  type BoardInput,
  type BoardStep,
  type BoardTurn,
} from '../lib/boardInput';
import { boardKey, cursorStart } from '../lib/boardKeyboard';
import type { LocalMove, PromotionPiece } from '../lib/chess';
import type { Premove } from '../lib/premove';
import { movesWords } from '../lib/speech';
import type { Color, Dests } from '../net/protocol';

export interface BoardProps {
  fen: string;
  /** The position as played, when fen shows queued premoves made on it (the moves said in
   * words are the played ones); absent: fen. */
  playedFen?: string;
  orientation: Color;
  /** The colour the user may move now, or null (spectator, history view, not their turn). */
  movable: Color | null;
  /** The colour that may queue a premove now (its opponent is to move), or null. */
  premoveColor?: Color | null;
  /** The premoves queued (fen shows them made). */
  premoves?: readonly Premove[];
  /** A premove to queue after the others, or null to cancel them all. */
  onPremove?: (premove: Premove | null) => void;
  lastMove: { from: string; to: string } | null;
  checkSquare: string | null;
  onMove: (move: LocalMove) => void;
  label: string;
  /** How the board looks and promotes, from the player's settings (features/settings). */
  appearance?: BoardAppearance;
  /** Arrows drawn on the board (besides those the user draws with the right button). */
  arrows?: readonly BoardArrow[];
  /** A live game's legal destinations from the server, which then decide the moves (castling
   * by the king onto its rook or two squares); absent: chess.js decides (the analysis board). */
  dests?: Dests | null;
  /** Squares marked on the board (King of the Hill's centre). */
  marked?: readonly string[];
}

/** An arrow from one square to another, with a label for screen readers ("best move e4"). */
export interface BoardArrow {
  from: string;
  to: string;
  color: string;
  label: string;
}

/** The player's settings as the board applies them; each absent field keeps the default. */
export interface BoardAppearance {
  /** The piece set's renderers (also in the promotion chooser); absent: react-chessboard's. */
  pieces?: PieceRenderObject;
  lightSquare?: string;
  darkSquare?: string;
  coordinates?: boolean;
  animationMs?: number;
  /** A promotion picks a queen at once, without the chooser. */
  autoQueen?: boolean;
}

const NO_PREMOVES: readonly Premove[] = [];
const NO_ARROWS: readonly BoardArrow[] = [];
const NO_MARKED: readonly string[] = [];
const MARKED = 'rgba(235, 97, 80, 0.28)';
const LAST_MOVE = 'rgba(155, 199, 0, 0.41)';
const SELECTED = 'rgba(20, 85, 30, 0.5)';
const PREMOVE = 'rgba(20, 30, 85, 0.45)';
const DOT = 'radial-gradient(circle, rgba(20, 85, 30, 0.5) 19%, transparent 20%)';
const RING = 'radial-gradient(transparent 0%, transparent 79%, rgba(20, 85, 30, 0.35) 80%)';
const CHECK =
  'radial-gradient(ellipse at center, rgb(255, 0, 0) 0%, rgb(231, 0, 0) 25%, rgba(169, 0, 0, 0) 89%, rgba(158, 0, 0, 0) 100%)';

export function Board({
  fen,
  playedFen = fen,
  orientation,
  movable,
  premoveColor = null,
  premoves = NO_PREMOVES,
  onPremove,
  lastMove,
  checkSquare,
  onMove,
  label,
  appearance = {},
  arrows = NO_ARROWS,
  dests,
  marked = NO_MARKED,
}: BoardProps) {
  const [input, setInput] = useState<BoardInput>(BOARD_IDLE);
  const { selected, promotion } = input;
  // Whose pieces the user handles now: to move, or to premove.
  const actor = boardActor(movable, premoveColor, onPremove !== undefined);
  const turn: BoardTurn = { fen, movable, actor, premoves, dests };

  // A new position (a move played, the history browsed) clears the selection.
  useEffect(() => {
    setInput(BOARD_IDLE);
  }, [fen, movable, actor]);

  const destinations = useMemo(
    () => boardDestinations({ fen, movable, actor, premoves, dests }, selected),
    [fen, selected, movable, actor, dests],
  );

  const pieces = useMemo(() => piecesOf(fen), [fen]);
  const drawnArrows = useMemo(
    () => arrows.map((a) => ({ startSquare: a.from, endSquare: a.to, color: a.color })),
    [arrows],
  );

  // The keyboard's cursor square (null until the board first has the focus), and what the
  // live region says (with a count, so that the same words said again are a new message).
  const ids = `board${useId().replace(/[^A-Za-z0-9]/g, '')}`;
  const focusRef = useRef<HTMLDivElement>(null);
  const [cursor, setCursor] = useState<string | null>(null);
  const [said, setSaid] = useState({ text: '', n: 0 });
  const say = (text: string) => setSaid((s) => ({ text, n: s.n + 1 }));
  // Whether the open promotion chooser was opened from the keyboard (the focus comes back).
  const promotionByKey = useRef(false);

  // Every move played on the board, by either side, in words.
  const shownFen = useRef(playedFen);
  useEffect(() => {
    const before = shownFen.current;
    shownFen.current = playedFen;
    const words = movesWords(before, playedFen, lastMove);
    if (words) say(words);
    // lastMove comes with its fen; only a new fen is a move to say.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [playedFen]);

  // dnd-kit makes every piece a focusable "draggable" button with its own keyboard dragging:
  // they are made plain (the board is the one tab stop), and its announcements hidden.
  useEffect(() => {
    const root = focusRef.current;
    if (!root) return;
    const plain = () => {
      for (const piece of root.querySelectorAll('[data-piece]')) {
        const draggable = piece.parentElement;
        if (!draggable || draggable === root) continue;
        for (const name of DRAGGABLE_ATTRIBUTES) {
          if (draggable.hasAttribute(name)) draggable.removeAttribute(name);
        }
      }
      for (const el of root.querySelectorAll('[id^="DndLiveRegion"], [id^="DndDescribedBy"]')) {
        if (!el.hasAttribute('aria-hidden')) el.setAttribute('aria-hidden', 'true');
      }
    };
    plain();
    const observer = new MutationObserver(plain);
    observer.observe(root, { subtree: true, childList: true, attributes: true, attributeFilter: DRAGGABLE_ATTRIBUTES });
    return () => observer.disconnect();
  }, []);

  // The chooser opened from the keyboard gives the focus back to the board when it closes.
  useEffect(() => {
    if (promotion || !promotionByKey.current) return;
    promotionByKey.current = false;
    focusRef.current?.focus();
  }, [promotion]);

  /** Applies a gesture's result: the next input, then the move or premove it produced. */
  const apply = (gesture: BoardStep): boolean => {
    // Auto-queen: a promotion that would open the chooser is a queen's at once.
    const step =
      appearance.autoQueen && gesture.input.promotion
        ? boardPromote({ ...input, ...gesture.input }, fen, 'q', dests)
        : gesture;
    setInput((i) => ({ ...i, ...step.input }));
    if (step.premove !== undefined) onPremove?.(step.premove);
    if (step.move) onMove(step.move);
    return step.accepted;
  };

  const onSquareClick = ({ square }: SquareHandlerArgs) => {
    setCursor(square);
    apply(boardClick(input, turn, square));
  };

  const onFocus = () => {
    if (!cursor) setCursor(cursorStart(orientation, selected, lastMove));
  };

  // A click does not move the focus onto the board (nor away from where it was).
  const onMouseDown = (e: ReactMouseEvent) => {
    if (document.activeElement !== focusRef.current) e.preventDefault();
  };

  const onKeyDown = (e: ReactKeyboardEvent) => {
    if (e.target !== e.currentTarget || e.altKey || e.ctrlKey || e.metaKey) return;
    const at = cursor ?? cursorStart(orientation, selected, lastMove);
    const action = boardKey(e.key, at, orientation);
    if (!action) return;
    // The board's keys are its own (not the page's history keys, nor a scroll).
    e.preventDefault();
    e.stopPropagation();
    if (action.kind === 'cursor') {
      setCursor(action.square);
      return;
    }
    if (action.kind === 'cancel') {
      if (selected) say('selection cancelled');
      setInput((i) => ({ ...i, selected: null }));
      if (premoves.length > 0) onPremove?.(null);
      return;
    }
    setCursor(at);
    const step = boardClick(input, turn, at);
    if (step.input.promotion) promotionByKey.current = true;
    if (step.input.selected) say(`${at}, ${pieces[at] ?? 'piece'}, selected`);
    if (step.premove) say(`premove from ${step.premove.from} to ${step.premove.to}`);
    apply(step);
  };

  useEffect(() => {
    if (premoves.length === 0 || !onPremove) return;
    const onKey = (e: KeyboardEvent) => {
      if (e.key === 'Escape') onPremove(null);
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [premoves, onPremove]);

  const onPieceDrop = ({ sourceSquare, targetSquare }: PieceDropHandlerArgs): boolean => {
    if (!targetSquare) return false;
    return apply(boardAttempt(turn, sourceSquare, targetSquare));
  };

  const squareStyles = useMemo(() => {
    const layers: Record<string, string[]> = {};
    const add = (sq: string, bg: string) => (layers[sq] ??= []).push(bg);
    for (const d of destinations) add(d.to, d.capture ? RING : DOT);
    if (checkSquare) add(checkSquare, CHECK);
    if (selected) add(selected, `linear-gradient(${SELECTED}, ${SELECTED})`);
    for (const p of premoves) {
      add(p.from, `linear-gradient(${PREMOVE}, ${PREMOVE})`);
      add(p.to, `linear-gradient(${PREMOVE}, ${PREMOVE})`);
    }
    if (lastMove) {
      add(lastMove.from, `linear-gradient(${LAST_MOVE}, ${LAST_MOVE})`);
      add(lastMove.to, `linear-gradient(${LAST_MOVE}, ${LAST_MOVE})`);
    }
    for (const sq of marked) add(sq, `linear-gradient(${MARKED}, ${MARKED})`);
    const styles: Record<string, CSSProperties> = {};
    for (const [sq, bgs] of Object.entries(layers)) styles[sq] = { background: bgs.join(', ') };
    return styles;
  }, [destinations, checkSquare, selected, lastMove, premoves, marked]);

  const squareRenderer = ({ square, children }: SquareHandlerArgs & { children?: ReactNode }) => {
    const piece = pieces[square];
    const dest = destinations.find((d) => d.to === square);
    const premoved = premoves.some((p) => p.from === square || p.to === square);
    const text = `${square}, ${piece ?? 'empty'}${marked.includes(square) ? ', hill' : ''}${checkSquare === square ? ', in check' : ''}${
      dest ? ', legal move' : ''
    }${selected === square ? ', selected' : ''}${premoved ? ', premove' : ''}`;
    return (
      <div
        id={`${ids}-${square}`}
        className="square-inner"
        role="img"
        aria-label={text}
        data-cursor={cursor === square ? '' : undefined}
        data-dest={dest ? (dest.capture ? 'capture' : 'move') : undefined}
        data-last={lastMove && (lastMove.from === square || lastMove.to === square) ? '' : undefined}
        data-marked={marked.includes(square) ? '' : undefined}
        style={{ width: '100%', height: '100%', ...squareStyles[square] }}
      >
        {children}
      </div>
    );
  };

  return (
    <>
      {/* The board's text for screen readers is beside it: its group's text is its coordinates. */}
      <div className="board-wrap" role="group" aria-label={label}>
        <div
          ref={focusRef}
          className="board-focus"
          tabIndex={0}
          role="application"
          aria-label={label}
          aria-describedby={`${ids}-keys`}
          aria-activedescendant={cursor ? `${ids}-${cursor}` : undefined}
          onFocus={onFocus}
          onKeyDown={onKeyDown}
          onMouseDown={onMouseDown}
        >
          <Chessboard
            options={{
              id: 'main',
              position: fen,
              boardOrientation: orientation,
              allowDragging: actor !== null && !promotion,
              allowDrawingArrows: true,
              arrows: drawnArrows,
              animationDurationInMs: appearance.animationMs ?? 200,
              showAnimations: appearance.animationMs !== 0,
              showNotation: appearance.coordinates ?? true,
              ...(appearance.pieces ? { pieces: appearance.pieces } : {}),
              ...(appearance.lightSquare ? { lightSquareStyle: { backgroundColor: appearance.lightSquare } } : {}),
              ...(appearance.darkSquare ? { darkSquareStyle: { backgroundColor: appearance.darkSquare } } : {}),
              ...(appearance.lightSquare && appearance.darkSquare
                ? {
                    lightSquareNotationStyle: { color: appearance.darkSquare },
                    darkSquareNotationStyle: { color: appearance.lightSquare },
                  }
                : {}),
              // pieceType is "wP", "bK", ...: the first letter is the colour.
              canDragPiece: ({ piece }) => actor !== null && piece.pieceType[0] === actor[0],
              onPieceDrag: ({ square }) => {
                if (square) setInput((i) => ({ ...i, selected: square }));
              },
              onPieceDrop,
              onSquareClick,
              squareStyles,
              squareRenderer,
            }}
          />
        </div>
        {promotion && movable && (
          <PromotionChooser
            color={movable}
            square={promotion.to}
            orientation={orientation}
            pieces={appearance.pieces ?? defaultPieces}
            onChoose={(piece) => apply(boardPromote(input, fen, piece, dests))}
            onCancel={() => setInput((i) => ({ ...i, promotion: null }))}
          />
        )}
      </div>
      <p id={`${ids}-keys`} className="visually-hidden">
        Arrow keys move across the board, Enter or Space picks up a piece and puts it down, Escape cancels.
        {arrows.map((a) => ` Arrow: ${a.label}, ${a.from} to ${a.to}.`).join('')}
      </p>
      <div className="visually-hidden" role="log" aria-live="polite" aria-label="Moves said">
        {said.text && <span key={said.n}>{said.text}</span>}
      </div>
    </>
  );
}

/** What dnd-kit puts on a draggable piece (removed: the board is the one tab stop). */
const DRAGGABLE_ATTRIBUTES = ['role', 'tabindex', 'aria-roledescription', 'aria-describedby', 'aria-disabled', 'aria-pressed'];

const PROMOTION_PIECES: { piece: PromotionPiece; name: string }[] = [
  { piece: 'q', name: 'queen' },
  { piece: 'n', name: 'knight' },
  { piece: 'r', name: 'rook' },
  { piece: 'b', name: 'bishop' },
];

/**
 * Where the chooser stands, as on lichess: a column of the four pieces on the promotion square's
 * file, from that square inwards (the queen on the square itself), in percent of the board as
 * the viewer sees it.
 */
export function promotionPlacement(square: string, orientation: Color): { left: string; atTop: boolean } {
  const file = square.charCodeAt(0) - 97;
  const rank = Number(square[1]);
  const column = orientation === 'white' ? file : 7 - file;
  const rowFromTop = orientation === 'white' ? 8 - rank : rank - 1;
  return { left: `${column * 12.5}%`, atTop: rowFromTop < 4 };
}

function PromotionChooser({
  color,
  square,
  orientation,
  pieces,
  onChoose,
  onCancel,
}: {
  color: Color;
  square: string;
  orientation: Color;
  pieces: PieceRenderObject;
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
  // A Space that opened the chooser on the board ends (keyup) on its first button: that click
  // counts only after a key went down inside the chooser (mouse clicks always count).
  const armed = useRef(false);
  // Arrow keys go from piece to piece, Tab stays inside the chooser (it is modal).
  const onKeyDown = (e: ReactKeyboardEvent<HTMLDivElement>) => {
    armed.current = true;
    const buttons = [...e.currentTarget.querySelectorAll('button')];
    const i = buttons.indexOf(document.activeElement as HTMLButtonElement);
    const pieces = PROMOTION_PIECES.length;
    let next = -1;
    if (e.key === 'ArrowRight' || e.key === 'ArrowDown') next = i < 0 || i >= pieces - 1 ? 0 : i + 1;
    else if (e.key === 'ArrowLeft' || e.key === 'ArrowUp') next = i <= 0 || i >= pieces ? pieces - 1 : i - 1;
    else if (e.key === 'Tab' && !e.shiftKey && i === buttons.length - 1) next = 0;
    else if (e.key === 'Tab' && e.shiftKey && i === 0) next = buttons.length - 1;
    if (next < 0) return;
    e.preventDefault();
    e.stopPropagation();
    buttons[next]?.focus();
  };
  const { left, atTop } = promotionPlacement(square, orientation);
  return (
    <div
      className={`promotion ${atTop ? 'from-top' : 'from-bottom'}`}
      role="dialog"
      aria-modal="true"
      aria-label="Choose a piece to promote to"
      onKeyDown={onKeyDown}
    >
      <div className="promotion-pieces" style={{ left }}>
        {PROMOTION_PIECES.map(({ piece, name }, i) => {
          const Svg = pieces[`${prefix}${piece.toUpperCase()}`];
          return (
            <button
              key={piece}
              type="button"
              autoFocus={i === 0}
              aria-label={`Promote to ${name}`}
              onClick={(e) => {
                if (e.detail > 0 || armed.current) onChoose(piece);
              }}
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
