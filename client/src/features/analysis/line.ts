/*
 * The analysis board's line: a start position and the moves played on it since, with undo.
 * Pure functions; the page keeps one in its state.
 */
import type { LocalMove } from '../../lib/chess';

export interface BoardLine {
  startFen: string;
  moves: LocalMove[];
}

export function lineFrom(startFen: string): BoardLine {
  return { startFen, moves: [] };
}

/** The position after the line's moves. */
export function lineFen(line: BoardLine): string {
  return line.moves.length ? line.moves[line.moves.length - 1].fen : line.startFen;
}

export function linePlay(line: BoardLine, move: LocalMove): BoardLine {
  return { ...line, moves: [...line.moves, move] };
}

export function lineUndo(line: BoardLine): BoardLine {
  return line.moves.length ? { ...line, moves: line.moves.slice(0, -1) } : line;
}

/** The moves in SAN. */
export function lineSan(line: BoardLine): string[] {
  return line.moves.map((m) => m.san);
}
