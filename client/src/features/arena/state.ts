/*
 * The arena feature's state: the list of arenas (arena_list) and the arenas whose pages are
 * shown, each as its last full state (arena) with the standings pushed since (arena_standings).
 * Pure reducers by message type; the controller (controller.ts) applies them and adds the
 * requests; tests feed them recorded messages.
 *
 * Ordering: an arena's "v" grows with every change of its state or standings. Standings whose v
 * is not above the copy's are stale and ignored; a full state replaces the copy unless it is
 * older (the same v is taken: a join's reply carries the joiner's own place). Standings for an
 * arena with no copy yet are ignored (they lack its name and clock; the watch's reply follows).
 * The standings say the watcher's own place ("me") and current game whenever it has them, so
 * their absence clears them (the game ended).
 */
import type { Reducers } from '../../lib/feature';
import type { ArenaFull, ArenaSummary, ServerMessageOf } from '../../net/protocol';

export interface ArenaState {
  /** The arenas the server keeps, once asked for (arena_list). */
  list: ArenaSummary[] | null;
  /** Watched arenas by id. */
  arenas: Record<string, ArenaFull>;
  /** Arenas the server could not give (unknown id, say), with the reason for people. */
  errors: Record<string, string>;
}

export const initialArenaState: ArenaState = { list: null, arenas: {}, errors: {} };

/** The list's copy of an arena with the summary fields of a newer state. */
function summaryOf(a: ArenaFull): ArenaSummary {
  const { id, name, creator, time, rated, starts, minutes, ends, status, players } = a;
  return { id, name, creator, time, rated, starts, minutes, ends, status, players };
}

/** The list with `a`'s entry brought up to date (the list unchanged when it lacks it). */
function listWith(list: ArenaSummary[] | null, a: ArenaFull): ArenaSummary[] | null {
  if (!list || !list.some((x) => x.id === a.id)) return list;
  return list.map((x) => (x.id === a.id ? summaryOf(a) : x));
}

function full(state: ArenaState, msg: ServerMessageOf<'arena'>): ArenaState {
  const prev = state.arenas[msg.arena.id];
  if (prev && msg.arena.v < prev.v) return state;
  const errors = { ...state.errors };
  delete errors[msg.arena.id];
  return {
    list: listWith(state.list, msg.arena),
    arenas: { ...state.arenas, [msg.arena.id]: msg.arena },
    errors,
  };
}

function standings(state: ArenaState, msg: ServerMessageOf<'arena_standings'>): ArenaState {
  const prev = state.arenas[msg.arena];
  if (!prev || msg.v <= prev.v) return state;
  const next: ArenaFull = {
    ...prev,
    v: msg.v,
    status: msg.status,
    players: msg.players,
    standings: msg.standings,
    podium: msg.podium ?? prev.podium,
    me: msg.me,
    game: msg.game,
  };
  return { ...state, list: listWith(state.list, next), arenas: { ...state.arenas, [next.id]: next } };
}

export const arenaReducers: Reducers<ArenaState> = {
  arena_list: (state, msg) => ({ ...state, list: msg.arenas }),
  arena: full,
  arena_standings: standings,
};

/** An arena that could not be watched: its reason, for its page. */
export function arenaFailed(state: ArenaState, id: string, reason: string): ArenaState {
  return { ...state, errors: { ...state.errors, [id]: reason } };
}

/** Forgets a watched arena (its page closed). */
export function arenaDropped(state: ArenaState, id: string): ArenaState {
  if (!state.arenas[id] && !state.errors[id]) return state;
  const arenas = { ...state.arenas };
  const errors = { ...state.errors };
  delete arenas[id];
  delete errors[id];
  return { ...state, arenas, errors };
}
