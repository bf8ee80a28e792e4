/*
 * What the board does with clicks, drags and the promotion chooser, as pure functions: which
 * square is selected, whether the chooser is open, and what comes out of a gesture (a move to
 * send, a premove to queue or to cancel). The Board component keeps a BoardInput in its state
 * and passes the results to its callbacks; the rules live here so that tests can drive them.
 *
 * Who acts: `movable` is the colour that may move now (or null); `actor` is the colour whose
 * pieces the user handles: the movable one, or, while its opponent is to move, the colour that
 * may queue a premove. Moves are checked against the server's `dests` when the board has them
 * (a live game: lib/dests.ts), else with chess.js (the analysis board); an illegal one does
 * nothing. Premoves only against the pieces' reach (lib/premove.ts), since the opponent has not
 * moved yet.
 */
import type { Color, Dests } from '../net/protocol';
import {
  isPromotion,
  legalDestinations,
  tryMove,
  type Destination,
  type LocalMove,
  type PromotionPiece,
} from './chess';
import { destsFor, destsPromotion, moveFromDests } from './dests';
import { premoveDestinations, type Premove } from './premove';

export interface BoardInput {
  /** The square whose piece the user picked, or null. */
  selected: string | null;
  /** A promotion waiting for the user's choice of piece, or null. */
  promotion: { from: string; to: string } | null;
}

export const BOARD_IDLE: BoardInput = { selected: null, promotion: null };

/** The position and who may do what in it. */
export interface BoardTurn {
  fen: string;
  movable: Color | null;
  actor: Color | null;
  /** The premoves queued now (the position shows them made). */
  premoves: readonly Premove[];
  /** The server's legal destinations (a live game), which then decide; absent: chess.js. */
  dests?: Dests | null;
}

/** The result of a gesture: what changes in the input, and what to pass on. */
export interface BoardStep {
  /** The fields of the input that change (the others stay as they are by then). */
  input: Partial<BoardInput>;
  /** A legal move to send. */
  move?: LocalMove;
  /** A premove to queue after the others, or null to cancel them all; absent when unchanged. */
  premove?: Premove | null;
  /** For a drop: whether the piece stays on the square it was dropped on. */
  accepted: boolean;
}

/** Whose pieces the user handles: the colour to move, else the one that may premove (if any). */
export function boardActor(movable: Color | null, premoveColor: Color | null, premoves: boolean): Color | null {
  return movable ?? (premoves ? premoveColor : null);
}

/** Where the selected piece may go: legal moves, or premove targets. */
export function boardDestinations(turn: BoardTurn, selected: string | null): Destination[] {
  if (!selected || !turn.actor) return [];
  if (!turn.movable) return premoveDestinations(turn.fen, selected, turn.actor);
  return turn.dests !== undefined ? destsFor(turn.dests ?? {}, turn.fen, selected) : legalDestinations(turn.fen, selected);
}

/**
 * A piece taken from `from` to `to` (a drop, or the second click). While premoving, the piece
 * goes back to its square and the premove is queued (or the queued ones cancelled when the
 * target is out of reach); a promotion opens the chooser; a legal move is sent.
 */
export function boardAttempt(turn: BoardTurn, from: string, to: string): BoardStep {
  const { fen, movable, actor } = turn;
  if (!movable && actor && from !== to) {
    const ok = premoveDestinations(fen, from, actor).some((d) => d.to === to);
    return { input: { selected: null }, premove: ok ? { from, to } : null, accepted: false };
  }
  if (!movable || from === to) return { input: {}, accepted: false };
  if (promotes(turn, from, to)) return { input: { promotion: { from, to } }, accepted: false };
  const move = turn.dests !== undefined ? moveFromDests(turn.dests ?? {}, fen, from, to) : tryMove(fen, from, to);
  if (!move) return { input: {}, accepted: false }; // snaps back
  return { input: { selected: null }, move, accepted: true };
}

function promotes(turn: BoardTurn, from: string, to: string): boolean {
  return turn.dests !== undefined ? destsPromotion(turn.dests ?? {}, turn.fen, from, to) : isPromotion(turn.fen, from, to);
}

/**
 * A click on a square: the second click of a move when the square is a destination of the
 * selected piece; otherwise it selects an own piece (or unselects it), or else cancels the
 * queued premoves.
 * Clicks wait while the promotion chooser is open.
 */
export function boardClick(input: BoardInput, turn: BoardTurn, square: string): BoardStep {
  if (input.promotion) return { input: {}, accepted: false };
  if (input.selected && boardDestinations(turn, input.selected).some((d) => d.to === square)) {
    return boardAttempt(turn, input.selected, square);
  }
  const own = turn.actor !== null && piecesOf(turn.fen)[square]?.startsWith(turn.actor) === true;
  const selected = own && input.selected !== square ? square : null;
  const step: BoardStep = { input: { selected }, accepted: false };
  // A click elsewhere (not on an own piece, which starts the next premove) cancels the queue.
  if (turn.premoves.length > 0 && !own) step.premove = null;
  return step;
}

/** The piece chosen for the waiting promotion: the chooser closes; the move, when legal (by
 * the server's dests when given, as in boardAttempt). */
export function boardPromote(input: BoardInput, fen: string, piece: PromotionPiece, dests?: Dests | null): BoardStep {
  if (!input.promotion) return { input: { promotion: null }, accepted: false };
  const { from, to } = input.promotion;
  const move = dests !== undefined ? moveFromDests(dests ?? {}, fen, from, to, piece) : tryMove(fen, from, to, piece);
  return move ? { input: { promotion: null }, move, accepted: false } : { input: { promotion: null }, accepted: false };
}

/** A piece's name by its letter (chess.js's, lowercase). */
export const PIECE_NAMES: Record<string, string> = {
  p: 'pawn',
  n: 'knight',
  b: 'bishop',
  r: 'rook',
  q: 'queen',
  k: 'king',
};

/** "e4" -> "white knight" for every occupied square. */
export function piecesOf(fen: string): Record<string, string> {
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
