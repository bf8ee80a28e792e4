/*
 * The client's copy of one game, built from the server's full state and kept up to date by its
 * events (pure functions, so tests replay exact message sequences).
 *
 * Ordering: every game event carries "v", the game's version after it; an event whose v is not
 * above the copy's is stale (already applied, or older than a full state) and is ignored. Not
 * every recipient sees every version (players and spectators have separate chat rooms), so a
 * gap in v is normal; moves carry their ply instead, and a move or takeback that does not fit
 * the copy's ply marks the game for a resync (the games controller then asks for the full state again).
 *
 * The computer (games against it): computer_thinking marks the ply it is thinking at, until the
 * next move, takeback or end; computer_analysis (spectators only) keeps its latest line. These
 * messages carry no "v" (they are not part of the game's history) and are checked by ply.
 *
 * Arena tournaments: an arena's game names its arena; a side that goes berserk (the berserk event)
 * keeps half its clock, which the event carries.
 *
 * Clocks: the server sends remaining milliseconds as of sending; the copy records when they
 * arrived (clockAt, performance.now() time) and which side's time runs, and the display
 * subtracts the time since (remainingMs).
 */
import { playUciOnFen } from '../../lib/board';
import { fenTurn, replay, START_FEN } from '../../lib/chess';
import { checksOfFen } from '../../lib/variant';
import type {
  ArchivedGame,
  ChatLine,
  Clocks,
  Color,
  Dests,
  GameFull,
  GameEventMessage,
  GameResult,
  OfferKind,
  SearchLine,
  ServerMessageOf,
  RatingChange,
  Termination,
  TimeControl,
  Variant,
} from '../../net/protocol';

export interface Seat {
  id: string;
  name: string;
  connected: boolean;
  /** While away: when (performance.now() time) the opponent may claim the game. */
  claimAt: number | null;
  /** An account's rating in the game's category (at the start of a rated game), and once a rated
   * game has ended, its change. */
  rating?: number;
  ratingDiff?: number;
  /** The rating is provisional (shown with a "?"). */
  provisional?: boolean;
  /** The computer's seat: its level. */
  computer?: number;
  /** A bot account (docs/bots.md). */
  bot?: boolean;
}

/** The computer's latest search line, for the position after `ply` plies. */
export type ComputerLine = SearchLine & { ply: number };

export interface GameOutcome {
  result: GameResult;
  /** Null when the record does not say (an imported game). */
  reason: Termination | null;
  winner: Color | null;
}

export interface GameState {
  id: string;
  v: number;
  white: Seat;
  black: Seat;
  time: TimeControl;
  status: 'playing' | 'ended';
  /** Whether the game counts for ratings; null when the server does not say. */
  rated: boolean | null;
  initialFen: string;
  /** UCI moves and their SAN, one per ply. */
  moves: string[];
  san: string[];
  /** fens[i]: the position after ply i (fens[0]: the start). */
  fens: string[];
  ply: number;
  /** The current position as the server sent it. */
  fen: string;
  /** Its rules and start (docs/protocol.md, "Variants"); Chess960's array number, or null. */
  variant: Variant;
  position: number | null;
  /** Three-check: the checks each side has given; null in other variants. */
  checks: Record<Color, number> | null;
  /** The server's legal destinations for the side to move while the game is live, else null. */
  dests: Dests | null;
  turn: Color;
  clock: Clocks | null;
  clockRunning: Color | null;
  clockAt: number;
  outcome: GameOutcome | null;
  offers: Record<OfferKind, Color | null>;
  rematch: string | null;
  chat: ChatLine[];
  /** An event did not fit: the full state must be fetched again. */
  stale: boolean;
  /** A finished game read from the server's archive (not live: no events will come). */
  archived: boolean;
  /** The ply at which the computer is thinking about its move, or null. */
  thinking: number | null;
  /** The computer's latest line (sent to spectators only), or null. */
  analysis: ComputerLine | null;
  /** How many people watch (the server's `spectators`; the players are not counted). */
  spectators: number;
  /** An arena tournament's game: its arena; null otherwise. */
  arena: { id: string; name: string } | null;
  /** Which sides went berserk (arena games). */
  berserk: Record<Color, boolean>;
}

const NO_BERSERK: Record<Color, boolean> = { white: false, black: false };

export const CHAT_KEEP = 100;

/**
 * The position before each ply and after the last (fens[0]: the start): chess.js replays what
 * it can, the board of lib/board.ts the rest (Chess960's castling, Three-check's FENs); should
 * a move still not replay, every later position is the last one known. `last`, the current
 * position as the server wrote it, when known, stands for the last.
 */
export function historyFens(initialFen: string, moves: readonly string[], last?: string): string[] {
  const fens = replay(initialFen, moves);
  while (fens.length <= moves.length) {
    const next = playUciOnFen(fens[fens.length - 1], moves[fens.length - 1]);
    fens.push(next ?? last ?? fens[fens.length - 1]);
  }
  if (last) fens[moves.length] = last;
  return fens;
}

/** A game from the server's full state received at `now` (performance.now()). */
export function gameFromFull(full: GameFull, now: number): GameState {
  const fens = historyFens(full.initial_fen, full.moves, full.fen);
  return {
    id: full.id,
    v: full.v,
    white: seatFrom(full.white),
    black: seatFrom(full.black),
    time: full.time,
    status: full.status,
    rated: full.rated ?? null,
    initialFen: full.initial_fen,
    moves: [...full.moves],
    san: [...full.san],
    fens,
    ply: full.ply,
    fen: full.fen,
    variant: full.variant ?? 'standard',
    position: full.position ?? null,
    checks: full.checks ?? checksOfFen(full.fen),
    dests: full.status === 'playing' ? (full.dests ?? null) : null,
    turn: full.turn,
    clock: full.clock,
    clockRunning: full.status === 'ended' ? null : full.clock_running,
    clockAt: now,
    outcome:
      full.status === 'ended' && full.result && full.reason
        ? { result: full.result, reason: full.reason, winner: full.winner ?? null }
        : null,
    offers: {
      draw: full.offers?.draw ?? null,
      takeback: full.offers?.takeback ?? null,
      rematch: full.offers?.rematch ?? null,
    },
    rematch: full.rematch,
    chat: full.chat.slice(-CHAT_KEEP),
    stale: false,
    archived: false,
    thinking: null,
    analysis: null,
    spectators: 0,
    arena: full.arena ?? null,
    berserk: full.berserk ?? NO_BERSERK,
  };
}

/** A game from the server's archive (game_record), shown read-only. */
export function gameFromArchive(a: ArchivedGame, now: number): GameState {
  const moves = a.moves ?? [];
  const initialFen = a.initial_fen ?? START_FEN;
  const fens = historyFens(initialFen, moves, a.fen);
  const fen = fens[fens.length - 1];
  const seat = (side: ArchivedGame['white']): Seat => ({
    id: side.id ?? '',
    name: side.name,
    connected: false,
    claimAt: null,
    rating: side.rating,
    ratingDiff: side.rating_diff,
    ...(side.bot ? { bot: true } : {}),
  });
  const ended = a.result !== null && a.result !== undefined && a.result !== '*';
  return {
    id: a.id,
    v: 0,
    white: seat(a.white),
    black: seat(a.black),
    time: a.time,
    status: 'ended',
    rated: a.rated,
    initialFen,
    moves: [...moves],
    san: [...(a.san ?? [])],
    fens,
    ply: moves.length,
    fen,
    variant: a.variant ?? 'standard',
    position: a.position ?? null,
    checks: checksOfFen(fen),
    dests: null,
    turn: fenTurn(fen),
    clock: null,
    clockRunning: null,
    clockAt: now,
    outcome: ended ? { result: a.result!, reason: a.reason ?? null, winner: a.winner ?? null } : null,
    offers: { draw: null, takeback: null, rematch: null },
    rematch: null,
    chat: [],
    stale: false,
    archived: true,
    thinking: null,
    analysis: null,
    spectators: 0,
    arena: a.arena ?? null,
    berserk: NO_BERSERK,
  };
}

function ratedSeat(seat: Seat, change: RatingChange | undefined): Seat {
  return change ? { ...seat, rating: change.before, ratingDiff: change.diff } : seat;
}

function seatFrom(p: GameFull['white']): Seat {
  const seat: Seat = { id: p.id, name: p.name, connected: p.connected, claimAt: null };
  if (p.computer !== undefined) seat.computer = p.computer;
  if (p.bot) seat.bot = true;
  if (p.rating !== undefined) seat.rating = p.rating;
  if (p.provisional) seat.provisional = true;
  return seat;
}

/**
 * A full state replacing `prev` (a resync) says nothing about the computer's search: what the
 * old copy knew still holds while the game stands at the same ply.
 */
export function keepComputerState(prev: GameState | undefined, next: GameState): GameState {
  if (!prev || (prev.thinking === null && prev.analysis === null)) return next;
  const thinking = next.status === 'playing' && prev.thinking === next.ply ? prev.thinking : null;
  const analysis = prev.analysis && prev.analysis.ply <= next.ply ? prev.analysis : null;
  if (thinking === next.thinking && analysis === next.analysis) return next;
  return { ...next, thinking, analysis };
}

/**
 * Applies computer_thinking or computer_analysis. Messages about another ply than the copy's
 * (late ones, from before a move or takeback) and messages after the end change nothing; the
 * same object is returned then.
 */
export function applyComputerMessage(
  game: GameState,
  msg: ServerMessageOf<'computer_thinking' | 'computer_analysis'>,
): GameState {
  if (msg.ply !== game.ply || game.status !== 'playing') return game;
  if (msg.type === 'computer_thinking') {
    const thinking = msg.thinking ? msg.ply : null;
    return thinking === game.thinking ? game : { ...game, thinking };
  }
  const { type: _type, game: _game, id: _id, ...line } = msg;
  return { ...game, analysis: line };
}

/**
 * Applies one event received at `now`. Returns the same object when nothing changed (a stale
 * event), else a new state.
 */
export function applyGameEvent(game: GameState, ev: GameEventMessage, now: number): GameState {
  if (ev.v <= game.v) return game;
  switch (ev.type) {
    case 'move': {
      if (ev.ply <= game.ply) return { ...game, v: ev.v };
      if (ev.ply !== game.ply + 1) return { ...game, stale: true };
      const mover: Color = ev.turn === 'white' ? 'black' : 'white';
      const offers = { ...game.offers, takeback: null };
      if (offers.draw && offers.draw !== mover) offers.draw = null; // a move declines a draw
      return {
        ...game,
        v: ev.v,
        moves: [...game.moves, ev.uci],
        san: [...game.san, ev.san],
        fens: [...game.fens, ev.fen],
        ply: ev.ply,
        fen: ev.fen,
        checks: checksOfFen(ev.fen) ?? game.checks,
        dests: ev.dests ?? null,
        turn: ev.turn,
        clock: ev.clock,
        clockRunning: ev.ply >= 2 && game.status === 'playing' ? ev.turn : null,
        clockAt: now,
        offers,
        thinking: null,
      };
    }
    case 'game_end':
      return {
        ...game,
        v: ev.v,
        // A rated game's end: each side's rating before it and the change.
        white: ratedSeat(game.white, ev.ratings?.white),
        black: ratedSeat(game.black, ev.ratings?.black),
        status: 'ended',
        dests: null,
        outcome: { result: ev.result, reason: ev.reason, winner: ev.winner },
        clock: ev.clock ?? game.clock,
        clockRunning: null,
        clockAt: now,
        offers: { draw: null, takeback: null, rematch: null },
        thinking: null,
      };
    case 'offer':
      return { ...game, v: ev.v, offers: { ...game.offers, [ev.kind]: ev.by } };
    case 'offer_declined':
      return { ...game, v: ev.v, offers: { ...game.offers, [ev.kind]: null } };
    case 'takeback': {
      if (game.ply - ev.undone !== ev.ply) return { ...game, stale: true };
      return {
        ...game,
        v: ev.v,
        moves: game.moves.slice(0, ev.ply),
        san: game.san.slice(0, ev.ply),
        fens: [...game.fens.slice(0, ev.ply), ev.fen],
        ply: ev.ply,
        fen: ev.fen,
        checks: checksOfFen(ev.fen) ?? game.checks,
        dests: ev.dests ?? null,
        turn: ev.turn,
        clock: ev.clock,
        clockRunning: ev.ply >= 2 && game.status === 'playing' ? ev.turn : null,
        clockAt: now,
        offers: { ...game.offers, takeback: null, draw: null },
        thinking: null,
        analysis: game.analysis && game.analysis.ply <= ev.ply ? game.analysis : null,
      };
    }
    case 'time_given':
      // Both clocks as of now (the running side's already less what it used).
      return { ...game, v: ev.v, clock: ev.clock, clockAt: now };
    case 'berserk':
      // The berserk side's clock halved, as of now.
      return { ...game, v: ev.v, clock: ev.clock, clockAt: now, berserk: { ...game.berserk, [ev.color]: true } };
    case 'presence': {
      const seat: Seat = {
        ...game[ev.color],
        connected: ev.connected,
        // No claim_after_ms: a game without a clock, which waits for its players.
        claimAt: ev.connected || ev.claim_after_ms === undefined ? null : now + ev.claim_after_ms,
      };
      return { ...game, v: ev.v, [ev.color]: seat };
    }
    case 'chat': {
      const line: ChatLine = { room: ev.room, from: ev.from, text: ev.text, time: ev.time };
      return { ...game, v: ev.v, chat: [...game.chat, line].slice(-CHAT_KEEP) };
    }
    case 'rematch':
      return { ...game, v: ev.v, rematch: ev.next };
  }
}

/** A side's remaining time at `now` (performance.now()), never below zero; null: no clock. */
export function remainingMs(game: GameState, color: Color, now: number): number | null {
  if (!game.clock) return null;
  const base = game.clock[color];
  const used = game.clockRunning === color ? Math.max(0, now - game.clockAt) : 0;
  return Math.max(0, base - used);
}

/** The seat colour of a player in a game, or null for spectators. */
export function colorOf(game: GameState, playerId: string | undefined): Color | null {
  if (!playerId) return null;
  if (game.white.id === playerId) return 'white';
  if (game.black.id === playerId) return 'black';
  return null;
}

/** Plies the player `color` has made so far. */
export function pliesBy(game: GameState, color: Color): number {
  return color === 'white' ? Math.ceil(game.ply / 2) : Math.floor(game.ply / 2);
}

/** Whether `color` may still go berserk: an arena game in play, before its own first move. */
export function canBerserk(game: GameState, color: Color): boolean {
  return game.arena !== null && game.status === 'playing' && !game.berserk[color] && pliesBy(game, color) === 0;
}
