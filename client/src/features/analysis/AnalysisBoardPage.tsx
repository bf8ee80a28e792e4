/*
 * The analysis board (/analysis, or /analysis?fen=<FEN>): any position, set by FEN or reached by
 * playing moves for both sides on the board (checked by chess.js), analysed by the server's
 * engine with the analysis panel (also on the game page of a finished game). Finished games link here with their position.
 */
import { useState, type FormEvent } from 'react';
import { Icon } from '../../components/Icon';
import { checkedKingSquare, fenTurn, normaliseFen, START_FEN } from '../../lib/chess';
import { numberedPv } from '../../lib/evaluation';
import { opposite, type Color } from '../../net/protocol';
import { Board } from '../../components/Board';
import { useBoardAppearance } from '../settings';
import { AnalysisPanel } from './AnalysisPanel';
import { lineFen, lineFrom, linePlay, lineSan, lineUndo, type BoardLine } from './line';

/** The start position a URL asks for (?fen=...), or the standard one. */
function startFromUrl(): string {
  const asked = new URLSearchParams(window.location.search).get('fen');
  return (asked && normaliseFen(asked)) || START_FEN;
}

export function AnalysisBoardPage() {
  const [line, setLine] = useState<BoardLine>(() => lineFrom(startFromUrl()));
  const [orientation, setOrientation] = useState<Color>(() => fenTurn(lineFen(lineFrom(startFromUrl()))));
  const [fenText, setFenText] = useState('');
  const [fenError, setFenError] = useState<string | null>(null);
  const fen = lineFen(line);
  const last = line.moves[line.moves.length - 1];
  const san = lineSan(line);
  const appearance = useBoardAppearance();

  const setPosition = (e: FormEvent) => {
    e.preventDefault();
    const next = normaliseFen(fenText);
    if (!next) {
      setFenError('This is not a FEN the board can read.');
      return;
    }
    setFenError(null);
    setLine(lineFrom(next));
    setFenText('');
  };
  return (
    <div className="game-layout">
      <div className="board-col">
        <Board
          fen={fen}
          orientation={orientation}
          movable={fenTurn(fen)}
          lastMove={last ? { from: last.from, to: last.to } : null}
          checkSquare={checkedKingSquare(fen)}
          onMove={(m) => setLine((l) => linePlay(l, m))}
          label={`Analysis board, ${orientation} at the bottom, ${fenTurn(fen)} to move`}
          appearance={appearance}
        />
      </div>
      <aside className="game-side">
        <section className="panel" aria-labelledby="board-title">
          <h1 id="board-title">Analysis board</h1>
          <p className="hint">Play moves for both sides, or set a position by FEN.</p>
          <p className="board-line" role="group" aria-label="Moves played">
            {san.length ? numberedPv(line.startFen, san) : `${fenTurn(fen) === 'white' ? 'White' : 'Black'} to move`}
          </p>
          <div className="button-row">
            <button type="button" disabled={!san.length} onClick={() => setLine(lineUndo)}>
              Undo
            </button>
            <button type="button" onClick={() => setLine(lineFrom(START_FEN))}>
              Start position
            </button>
            <button type="button" onClick={() => setOrientation(opposite)} aria-label="Flip the board">
              <Icon name="flip" /> Flip
            </button>
          </div>
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
        </section>
        <AnalysisPanel fen={fen} />
      </aside>
    </div>
  );
}
