/*
 * The board editor (/editor, or /editor?fen=<FEN>): a position set up by hand (editor.ts).
 * A palette chooses a piece (or removal); a click on a square, or Enter or Space on it, puts
 * the piece there (the same piece again takes it off). The board is one tab stop: arrow keys,
 * Home, End, PageUp and PageDown move between its squares (lib/boardKeyboard.ts), each named
 * like "e4, white knight". Beside it: the side to move, the castling rights (those the kings
 * and rooks allow), an en-passant square, the start position, an empty board, the flip, the
 * live FEN (typing a FEN sets the board) and why the position cannot be analysed, if so.
 * "Analyse this position" opens the analysis board on it.
 */
import { useRef, useState, type KeyboardEvent } from 'react';
import { defaultPieces } from 'react-chessboard';
import { navigate } from '../../app/router';
import type { BoardAppearance } from '../../components/Board';
import { Icon } from '../../components/Icon';
import { boardKey } from '../../lib/boardKeyboard';
import { opposite, type Color } from '../../net/protocol';
import { useBoardAppearance } from '../settings';
import {
  CASTLING_RIGHTS,
  castlingPossible,
  EDITOR_PIECES,
  EDITOR_START,
  editorClear,
  editorFen,
  editorFromFen,
  editorProblem,
  editorPut,
  enPassantSquares,
  type CastlingRight,
  type EditorPiece,
  type EditorPosition,
} from './editor';
import { analysisUrl } from './url';

const PIECE_NAMES: Record<string, string> = { k: 'king', q: 'queen', r: 'rook', b: 'bishop', n: 'knight', p: 'pawn' };
const CASTLING_NAMES: Record<CastlingRight, string> = {
  K: 'White O-O',
  Q: 'White O-O-O',
  k: 'Black O-O',
  q: 'Black O-O-O',
};
const FILES = 'abcdefgh';

function pieceName(piece: EditorPiece): string {
  return `${piece === piece.toUpperCase() ? 'white' : 'black'} ${PIECE_NAMES[piece.toLowerCase()]}`;
}

/** react-chessboard's key for a piece: "wN", "bP". */
function pieceKey(piece: EditorPiece): string {
  return `${piece === piece.toUpperCase() ? 'w' : 'b'}${piece.toUpperCase()}`;
}

/** The position an address asks for (?fen=...), or the start position. */
function startFromUrl(): EditorPosition {
  const asked = new URLSearchParams(window.location.search).get('fen');
  return (asked && editorFromFen(asked)) || EDITOR_START;
}

export function BoardEditor() {
  const [pos, setPos] = useState<EditorPosition>(startFromUrl);
  const [tool, setTool] = useState<EditorPiece | 'remove'>('P');
  const [orientation, setOrientation] = useState<Color>('white');
  const [fenDraft, setFenDraft] = useState<string | null>(null);
  const appearance = useBoardAppearance();
  const pieces = appearance.pieces ?? defaultPieces;
  const fen = editorFen(pos);
  const problem = editorProblem(pos);
  const edit = (next: EditorPosition) => {
    setPos(next);
    setFenDraft(null);
  };

  const put = (square: string) => {
    const piece = tool === 'remove' || pos.board[square] === tool ? null : tool;
    edit(editorPut(pos, square, piece));
  };
  const typed = (text: string) => {
    setFenDraft(text);
    const next = editorFromFen(text);
    if (next) setPos(next);
  };
  const epSquares = enPassantSquares(pos);

  return (
    <div className="game-layout">
      <div className="board-col">
        <EditorBoard pos={pos} orientation={orientation} appearance={appearance} onSquare={put} />
      </div>
      <aside className="game-side">
        <section className="panel" aria-labelledby="editor-title">
          <h1 id="editor-title">Board editor</h1>
          <p className="hint">Choose a piece, then click squares (or use the arrow keys and Enter on the board) to put it there; the same piece again takes it off.</p>
          <div className="editor-palette" role="group" aria-label="Piece to place">
            {EDITOR_PIECES.map((p) => {
              const Svg = pieces[pieceKey(p)];
              return (
                <button
                  key={p}
                  type="button"
                  aria-pressed={tool === p}
                  aria-label={pieceName(p)}
                  onClick={() => setTool(p)}
                >
                  <Svg />
                </button>
              );
            })}
            <button type="button" className="editor-remove" aria-pressed={tool === 'remove'} onClick={() => setTool('remove')}>
              Remove
            </button>
          </div>
          <fieldset>
            <legend>Side to move</legend>
            <div className="button-row">
              {(['w', 'b'] as const).map((t) => (
                <label key={t} className="check">
                  <input type="radio" name="editor-turn" checked={pos.turn === t} onChange={() => edit({ ...pos, turn: t })} />
                  {t === 'w' ? 'White' : 'Black'}
                </label>
              ))}
            </div>
          </fieldset>
          <fieldset>
            <legend>Castling</legend>
            <div className="button-row">
              {CASTLING_RIGHTS.map((c) => (
                <label key={c} className="check">
                  <input
                    type="checkbox"
                    disabled={!castlingPossible(pos, c)}
                    checked={pos.castling.includes(c) && castlingPossible(pos, c)}
                    onChange={(e) =>
                      edit({
                        ...pos,
                        castling: e.target.checked ? [...pos.castling, c] : pos.castling.filter((x) => x !== c),
                      })
                    }
                  />
                  {CASTLING_NAMES[c]}
                </label>
              ))}
            </div>
          </fieldset>
          <div className="stack">
            <label htmlFor="editor-ep">En passant</label>
            <select
              id="editor-ep"
              value={pos.enPassant && epSquares.includes(pos.enPassant) ? pos.enPassant : ''}
              onChange={(e) => edit({ ...pos, enPassant: e.target.value || null })}
            >
              <option value="">None</option>
              {epSquares.map((sq) => (
                <option key={sq} value={sq}>
                  {sq}
                </option>
              ))}
            </select>
          </div>
          <div className="button-row">
            <button type="button" onClick={() => edit(EDITOR_START)}>
              Start position
            </button>
            <button type="button" onClick={() => edit(editorClear())}>
              Clear board
            </button>
            <button type="button" onClick={() => setOrientation(opposite)} aria-label="Flip the board">
              <Icon name="flip" /> Flip
            </button>
          </div>
          <div className="stack">
            <label htmlFor="editor-fen">FEN</label>
            <input
              id="editor-fen"
              value={fenDraft ?? fen}
              onChange={(e) => typed(e.target.value)}
              onBlur={() => setFenDraft(null)}
              spellCheck={false}
              autoComplete="off"
              aria-invalid={fenDraft !== null && !editorFromFen(fenDraft)}
            />
          </div>
          <p className={problem ? 'form-error' : 'hint'} role="status">
            {problem ?? 'The position can be analysed.'}
          </p>
          <button
            type="button"
            className="primary"
            disabled={problem !== null}
            onClick={() => navigate(analysisUrl(fen, [], undefined, orientation))}
          >
            Analyse this position
          </button>
        </section>
      </aside>
    </div>
  );
}

/** The editor's board: 64 squares in one tab stop, the focused one moved by the board's keys. */
function EditorBoard({
  pos,
  orientation,
  appearance,
  onSquare,
}: {
  pos: EditorPosition;
  orientation: Color;
  appearance: BoardAppearance;
  onSquare: (square: string) => void;
}) {
  const pieces = appearance.pieces ?? defaultPieces;
  const [cursor, setCursor] = useState('e2');
  const gridRef = useRef<HTMLDivElement>(null);
  const ranks = orientation === 'white' ? [8, 7, 6, 5, 4, 3, 2, 1] : [1, 2, 3, 4, 5, 6, 7, 8];
  const files = orientation === 'white' ? [...FILES] : [...FILES].reverse();

  const onKeyDown = (e: KeyboardEvent) => {
    if (e.altKey || e.ctrlKey || e.metaKey) return;
    const action = boardKey(e.key, cursor, orientation);
    if (action?.kind !== 'cursor') return; // Enter and Space click the square's button
    e.preventDefault();
    setCursor(action.square);
    gridRef.current?.querySelector<HTMLButtonElement>(`[data-square="${action.square}"]`)?.focus();
  };

  return (
    <div
      className="editor-board"
      ref={gridRef}
      role="group"
      aria-label={`Board editor, ${orientation} at the bottom`}
      onKeyDown={onKeyDown}
    >
      {ranks.map((r) =>
        files.map((f) => {
          const square = `${f}${r}`;
          const piece = pos.board[square];
          const Svg = piece ? pieces[pieceKey(piece)] : null;
          const light = (FILES.indexOf(f) + r) % 2 === 1;
          const color = light ? (appearance.lightSquare ?? '#f0d9b5') : (appearance.darkSquare ?? '#b58863');
          return (
            <button
              key={square}
              type="button"
              data-square={square}
              tabIndex={square === cursor ? 0 : -1}
              aria-label={`${square}, ${piece ? pieceName(piece) : 'empty'}`}
              style={{ background: color }}
              onClick={() => {
                setCursor(square);
                onSquare(square);
              }}
            >
              {Svg && <Svg />}
            </button>
          );
        }),
      )}
    </div>
  );
}
