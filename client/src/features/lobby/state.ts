/*
 * The lobby's state: the seek list (listed seeks only, once subscribed), this player's open
 * challenges (by link, or to one player) and the direct challenges to this player waiting for
 * an answer; the player's games in progress (my_games) for the daily games waiting for its move.
 * Pure reducers by message type, fed recorded messages by the tests.
 */
import { reduceWith, type Reducers } from '../../lib/feature';
import { dailyDays } from '../../lib/timeControl';
import type { DeclineReason, MyGame, Seek, ServerMessage, TimeControl } from '../../net/protocol';

/** The quick pairing pool this player waits in (docs/protocol.md, pool_join). */
export interface PoolWait {
  time: TimeControl;
  rated: boolean;
  /** Players waiting in it when this player joined. */
  waiting: number;
}

export interface LobbyState {
  /** Quick pairing: the pool this player waits in, or null. */
  pool: PoolWait | null;
  seeks: Seek[];
  seeksLoaded: boolean;
  /** This player's open challenges (by link, or to one player). */
  challenges: Record<string, Seek>;
  /** Direct challenges to this player, waiting for an answer. */
  incoming: Record<string, Seek>;
  /** The player's games in progress as my_games last listed them (its turn first). */
  myGames: MyGame[];
}

export const initialLobbyState: LobbyState = {
  pool: null,
  seeks: [],
  seeksLoaded: false,
  challenges: {},
  incoming: {},
  myGames: [],
};

export const lobbyReducers: Reducers<LobbyState> = {
  pool_joined: (state, msg) => ({ ...state, pool: { time: msg.time, rated: msg.rated, waiting: msg.waiting } }),
  pool_left: (state) => ({ ...state, pool: null }),
  seeks: (state, msg) => ({ ...state, seeks: msg.seeks, seeksLoaded: true }),
  seek_added: (state, msg) => {
    if (state.seeks.some((s) => s.id === msg.seek.id)) return state; // the reply and the push
    return { ...state, seeks: [...state.seeks, msg.seek] };
  },
  seek_removed: (state, msg) => ({ ...state, seeks: state.seeks.filter((s) => s.id !== msg.seek) }),
  challenge_created: (state, msg) => ({ ...state, challenges: { ...state.challenges, [msg.challenge.id]: msg.challenge } }),
  challenge_received: (state, msg) => ({ ...state, incoming: { ...state.incoming, [msg.challenge.id]: msg.challenge } }),
  my_games: (state, msg) => ({ ...state, myGames: msg.games }),
  challenge_removed: (state, msg) => {
    if (!state.challenges[msg.challenge] && !state.incoming[msg.challenge]) return state;
    const challenges = { ...state.challenges };
    const incoming = { ...state.incoming };
    delete challenges[msg.challenge];
    delete incoming[msg.challenge];
    return { ...state, challenges, incoming };
  },
};

/** Folds one message into the state (what tests replay). */
export function reduceLobby(state: LobbyState, msg: ServerMessage, now = 0): LobbyState {
  return reduceWith(lobbyReducers, state, msg, now);
}

const DECLINE_WORDS: Record<DeclineReason, string> = {
  generic: '',
  later: ': not now',
  time_control: ': not this time control',
  rated: ': not a rated game',
  casual: ': not a casual game',
  too_many_games: ': playing too many games',
};

/** "RandBot declined your challenge: not this time control". */
export function declineText(challenge: Seek, reason?: DeclineReason): string {
  const who = challenge.to?.name ?? 'Your opponent';
  return `${who} declined your challenge${reason ? DECLINE_WORDS[reason] : ''}`;
}

/** The daily games waiting for the player's move (lichess's "Your turn"), in my_games' order:
 * the least time left first. */
export function dailyTurns(games: readonly MyGame[]): MyGame[] {
  return games.filter((g) => g.my_turn && dailyDays(g.time) !== null);
}
