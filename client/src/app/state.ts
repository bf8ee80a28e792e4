/*
 * The application state and the pure function that folds a server message into it. The store
 * (store.ts) owns the socket and calls this for every message; tests call it directly with
 * recorded message sequences.
 */
import type { ConnectionState } from '../net/socket';
import type { GameSummary, PlayerRef, Seek, ServerMessage } from '../net/protocol';
import { isGameEvent } from '../net/protocol';
import { applyAnalysisMessage, type AnalysisView } from './analysis';
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

export interface Notice {
  id: number;
  kind: 'error' | 'info';
  text: string;
}

export interface Me extends PlayerRef {
  token: string;
}

export interface AppState {
  conn: ConnectionState;
  me: Me | null;
  /** The lobby's seek list (listed seeks only), once subscribed. */
  seeks: Seek[];
  seeksLoaded: boolean;
  /** This player's open challenges (by link, or to one player). */
  challenges: Record<string, Seek>;
  /** Direct challenges to this player, waiting for an answer. */
  incoming: Record<string, Seek>;
  liveGames: GameSummary[] | null;
  games: Record<string, GameState>;
  pending: Record<string, PendingMove>;
  /** Games the server could not give (not found, say), with the reason for people. */
  gameErrors: Record<string, string>;
  notices: Notice[];
  /** The free analysis a page shows (one at a time), or null. */
  analysis: AnalysisView | null;
}

export const initialState: AppState = {
  conn: { status: 'offline', attempt: 0, retryAt: null, lastError: null },
  me: null,
  seeks: [],
  seeksLoaded: false,
  challenges: {},
  incoming: {},
  liveGames: null,
  games: {},
  pending: {},
  gameErrors: {},
  notices: [],
  analysis: null,
};

/** Folds one server message, received at `now` (performance.now()), into the state. */
export function reduceMessage(state: AppState, msg: ServerMessage, now: number): AppState {
  if (isGameEvent(msg)) {
    const game = state.games[msg.game];
    if (!game) return state;
    const next = applyGameEvent(game, msg, now);
    if (next === game) return state;
    return settlePending({ ...state, games: { ...state.games, [game.id]: next } }, game.id);
  }
  switch (msg.type) {
    case 'welcome': {
      const games = { ...state.games };
      // The welcome lists every game this player has in progress: one of theirs that the copy
      // thinks is in progress but is not listed ended meanwhile. Its copy goes (pages showing
      // it fetch it again).
      const listed = new Set(msg.games.map((g) => g.id));
      for (const g of Object.values(games)) {
        const mine = g.white.id === msg.player.id || g.black.id === msg.player.id;
        if (mine && g.status === 'playing' && !listed.has(g.id)) delete games[g.id];
      }
      for (const full of msg.games) games[full.id] = keepComputerState(games[full.id], gameFromFull(full, now));
      let s: AppState = {
        ...state,
        me: { ...msg.player, token: msg.token },
        games,
      };
      for (const full of msg.games) s = settlePending(s, full.id, true);
      return s;
    }
    case 'game':
    case 'game_started': {
      const game = keepComputerState(state.games[msg.game.id], gameFromFull(msg.game, now));
      const s = { ...state, games: { ...state.games, [msg.game.id]: game } };
      return settlePending(s, msg.game.id, true);
    }
    case 'computer_thinking':
    case 'computer_analysis': {
      const game = state.games[msg.game];
      if (!game) return state;
      const next = applyComputerMessage(game, msg);
      return next === game ? state : { ...state, games: { ...state.games, [game.id]: next } };
    }
    case 'analysis':
    case 'analysis_done': {
      if (!state.analysis) return state;
      const analysis = applyAnalysisMessage(state.analysis, msg);
      return analysis === state.analysis ? state : { ...state, analysis };
    }
    case 'seeks':
      return { ...state, seeks: msg.seeks, seeksLoaded: true };
    case 'seek_added':
      if (state.seeks.some((s) => s.id === msg.seek.id)) return state;
      return { ...state, seeks: [...state.seeks, msg.seek] };
    case 'seek_removed':
      return { ...state, seeks: state.seeks.filter((s) => s.id !== msg.seek) };
    case 'challenge_created':
      return { ...state, challenges: { ...state.challenges, [msg.challenge.id]: msg.challenge } };
    case 'challenge_received':
      return { ...state, incoming: { ...state.incoming, [msg.challenge.id]: msg.challenge } };
    case 'challenge_removed': {
      if (!state.challenges[msg.challenge] && !state.incoming[msg.challenge]) return state;
      const challenges = { ...state.challenges };
      const incoming = { ...state.incoming };
      delete challenges[msg.challenge];
      delete incoming[msg.challenge];
      return { ...state, challenges, incoming };
    }
    case 'live_games':
      return { ...state, liveGames: msg.games };
    case 'registered':
      if (!state.me || state.me.id !== msg.player.id) return state;
      return { ...state, me: { ...state.me, ...msg.player } };
    case 'player': // a profile: when it is this player's, it says whether they have an account
      if (!state.me || state.me.id !== msg.player.id) return state;
      if (state.me.registered === msg.player.registered && state.me.name === msg.player.name) return state;
      return { ...state, me: { ...state.me, registered: msg.player.registered, name: msg.player.name } };
    case 'game_record':
      // Only for games the server no longer has in memory (a live copy is never replaced).
      if (state.games[msg.game.id] && !state.games[msg.game.id].archived) return state;
      return { ...state, games: { ...state.games, [msg.game.id]: gameFromArchive(msg.game, now) } };
    default:
      return state;
  }
}

/**
 * Drops a game's pending move once the server's state has reached its ply (the move was
 * played), or, after a full state, when the state no longer leads to it.
 */
function settlePending(state: AppState, gameId: string, fullState = false): AppState {
  const p = state.pending[gameId];
  const game = state.games[gameId];
  if (!p || !game) return state;
  const done = game.ply >= p.ply || game.status === 'ended' || (fullState && game.ply !== p.ply - 1);
  if (!done) return state;
  const pending = { ...state.pending };
  delete pending[gameId];
  return { ...state, pending };
}
