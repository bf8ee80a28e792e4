/*
 * The game feature's state: the client's copy of every game shown or played (games.ts keeps one
 * copy up to date), the move this player is sending in each, and the games the server could not
 * give. Pure reducers by message type; the controller (controller.ts) applies them and adds the
 * requests; tests feed them recorded message sequences (reduceGames).
 *
 * A pending move is shown on the board before the server confirmed it; it goes once the copy
 * reaches its ply (the move was played), or, after a full state, when the state no longer
 * leads to it.
 */
import { reduceWith, type Reducers } from '../../lib/feature';
import type { GameEventMessage, ServerMessage, ServerMessageOf } from '../../net/protocol';
import {
  applyComputerMessage,
  applyGameEvent,
  gameFromArchive,
  gameFromFull,
  keepComputerState,
  type GameState,
} from './games';

/** A move shown on the board before the server confirmed it. */
export interface PendingMove {
  /** The ply the move makes. */
  ply: number;
  uci: string;
  san: string;
  fen: string;
  from: string;
  to: string;
}

export interface GamesState {
  games: Record<string, GameState>;
  pending: Record<string, PendingMove>;
  /** Games the server could not give (not found, say), with the reason for people. */
  errors: Record<string, string>;
}

export const initialGamesState: GamesState = { games: {}, pending: {}, errors: {} };

/** A game event (move, game_end, offer, ...): applied to its game, if the copy has it. */
function gameEvent(state: GamesState, msg: GameEventMessage, now: number): GamesState {
  const game = state.games[msg.game];
  if (!game) return state;
  const next = applyGameEvent(game, msg, now);
  if (next === game) return state;
  return settlePending({ ...state, games: { ...state.games, [game.id]: next } }, game.id);
}

/** A game's full state (game, game_started): replaces the copy (a full state does not carry the
 * number of spectators: the copy's stays). */
function fullState(state: GamesState, msg: ServerMessageOf<'game' | 'game_started'>, now: number): GamesState {
  const prev = state.games[msg.game.id];
  const fresh = gameFromFull(msg.game, now);
  const game = keepComputerState(prev, prev ? { ...fresh, spectators: prev.spectators } : fresh);
  return settlePending({ ...state, games: { ...state.games, [msg.game.id]: game } }, msg.game.id, true);
}

function computer(state: GamesState, msg: ServerMessageOf<'computer_thinking' | 'computer_analysis'>): GamesState {
  const game = state.games[msg.game];
  if (!game) return state;
  const next = applyComputerMessage(game, msg);
  return next === game ? state : { ...state, games: { ...state.games, [game.id]: next } };
}

export const gamesReducers: Reducers<GamesState> = {
  move: gameEvent,
  game_end: gameEvent,
  offer: gameEvent,
  offer_declined: gameEvent,
  takeback: gameEvent,
  time_given: gameEvent,
  presence: gameEvent,
  chat: gameEvent,
  rematch: gameEvent,
  berserk: gameEvent,
  game: fullState,
  game_started: fullState,
  computer_thinking: computer,
  computer_analysis: computer,
  spectators: (state, msg) => {
    const game = state.games[msg.game];
    if (!game || game.spectators === msg.count) return state;
    return { ...state, games: { ...state.games, [game.id]: { ...game, spectators: msg.count } } };
  },
  // Only for games the server no longer has in memory (a live copy is never replaced).
  game_record: (state, msg, now) => {
    if (state.games[msg.game.id] && !state.games[msg.game.id].archived) return state;
    return { ...state, games: { ...state.games, [msg.game.id]: gameFromArchive(msg.game, now) } };
  },
};

/**
 * The welcome lists every game this player has in progress: their copies are replaced, and one
 * of theirs that the copy thinks is in progress but is not listed ended meanwhile: its copy goes
 * (pages showing it fetch it again).
 */
export function gamesWelcomed(state: GamesState, msg: ServerMessageOf<'welcome'>, now: number): GamesState {
  const games = { ...state.games };
  const listed = new Set(msg.games.map((g) => g.id));
  for (const g of Object.values(games)) {
    const mine = g.white.id === msg.player.id || g.black.id === msg.player.id;
    if (mine && g.status === 'playing' && !listed.has(g.id)) delete games[g.id];
  }
  for (const full of msg.games) games[full.id] = keepComputerState(games[full.id], gameFromFull(full, now));
  let s: GamesState = { ...state, games };
  for (const full of msg.games) s = settlePending(s, full.id, true);
  return s;
}

/** Folds one message (the welcome included) into the state: what tests replay. */
export function reduceGames(state: GamesState, msg: ServerMessage, now: number): GamesState {
  return msg.type === 'welcome' ? gamesWelcomed(state, msg, now) : reduceWith(gamesReducers, state, msg, now);
}

/** The move being sent in a game, shown at once. */
export function withPending(state: GamesState, gameId: string, move: PendingMove): GamesState {
  return { ...state, pending: { ...state.pending, [gameId]: move } };
}

/** Drops a game's pending move if it is still the one of `ply` (the server refused it). */
export function dropPending(state: GamesState, gameId: string, ply: number): GamesState {
  const p = state.pending[gameId];
  if (!p || p.ply !== ply) return state;
  const pending = { ...state.pending };
  delete pending[gameId];
  return { ...state, pending };
}

/**
 * Drops a game's pending move once the server's state has reached its ply (the move was
 * played), or, after a full state, when the state no longer leads to it.
 */
export function settlePending(state: GamesState, gameId: string, fullState = false): GamesState {
  const p = state.pending[gameId];
  const game = state.games[gameId];
  if (!p || !game) return state;
  const done = game.ply >= p.ply || game.status === 'ended' || (fullState && game.ply !== p.ply - 1);
  if (!done) return state;
  const pending = { ...state.pending };
  delete pending[gameId];
  return { ...state, pending };
}
