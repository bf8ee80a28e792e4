/*
 * Protocol v1 between the browser and the server, as TypeScript types: every message a client
 * may send and every message the server sends, over one WebSocket at /ws carrying JSON text
 * frames. The server's message table (server/src/proto/proto.c) and encoder (encode.c) are the
 * source of truth; docs/protocol.md describes the same messages for people.
 *
 * A request may carry an "id" (number or string); the reply (a result event or an error)
 * echoes it. Events about a game carry the game id and "v", the game's version after the event.
 */

export const PROTOCOL_VERSION = 1;

export type Color = 'white' | 'black';
export type ColorChoice = Color | 'random';

/** "unlimited" or minutes (may be fractional, e.g. 0.25) plus increment seconds. */
export type TimeControl = 'unlimited' | { minutes: number; increment: number };

export interface PlayerRef {
  id: string;
  name: string;
  /** Whether the player has an account (servers with accounts say so). */
  registered?: boolean;
  bot?: boolean;
  /** The computer's seat in a game against it: its level (1-8); its id is computer-<level>. */
  computer?: number;
}

export interface GamePlayer extends PlayerRef {
  connected: boolean;
}

export interface Clocks {
  white: number;
  black: number;
}

export type GameResult = '1-0' | '0-1' | '1/2-1/2' | '*';

export type Termination =
  | 'checkmate'
  | 'stalemate'
  | 'threefold_repetition'
  | 'fivefold_repetition'
  | 'fifty_moves'
  | 'seventy_five_moves'
  | 'insufficient_material'
  | 'resignation'
  | 'agreement'
  | 'timeout'
  | 'timeout_vs_insufficient_material'
  | 'timeout_vs_insufficient'
  | 'aborted'
  | 'abandoned';

export type ChatRoom = 'players' | 'spectators';

export interface ChatLine {
  room: ChatRoom;
  from: PlayerRef;
  text: string;
  /** Wall-clock milliseconds. */
  time: number;
}

export type OfferKind = 'draw' | 'takeback' | 'rematch';

/** An engine score from White's point of view: centipawns, or moves to mate (negative: Black mates). */
export type EngineScore = { cp: number } | { mate: number };

/** One line of the engine's search after a completed depth (computer_analysis, analysis). */
export interface SearchLine {
  depth: number;
  seldepth?: number;
  multipv?: number;
  score: EngineScore;
  /** "lower" or "upper" when the score is only a bound. */
  bound?: 'lower' | 'upper';
  nodes?: number;
  nps?: number;
  time_ms?: number;
  /** The principal variation in SAN from the position searched. */
  pv: string[];
}

/** The full state of a game ("game", "game_started", the welcome's games, GET /api/games/<id>). */
export interface GameFull {
  id: string;
  v: number;
  white: GamePlayer;
  black: GamePlayer;
  time: TimeControl;
  status: 'playing' | 'ended';
  /** Whether the game counts for ratings (servers with accounts say so). */
  rated?: boolean;
  initial_fen: string;
  moves: string[];
  san: string[];
  ply: number;
  fen: string;
  turn: Color;
  clock: Clocks | null;
  clock_running: Color | null;
  result?: GameResult;
  reason?: Termination;
  winner?: Color | null;
  offers: Record<OfferKind, Color | null>;
  rematch: string | null;
  chat: ChatLine[];
}

/** A live game in lists. */
export interface GameSummary {
  id: string;
  white: PlayerRef;
  black: PlayerRef;
  time: TimeControl;
  ply: number;
  fen: string;
  turn: Color;
  clock: Clocks | null;
}

/** A seek in the lobby, or a challenge by link (which has a url). */
export interface Seek {
  id: string;
  player: PlayerRef;
  time: TimeControl;
  color: ColorChoice;
  created: number;
  url?: string;
  /** A direct challenge: the one player invited, and whether the game would be rated. */
  to?: PlayerRef;
  rated?: boolean;
  casual?: boolean;
}

/** A bot this account owns (bots_list), with how many of its tokens work. */
export interface OwnedBot extends PlayerRef {
  created_at: number;
  tokens: number;
}

/** Why a challenge went away; a declined one also says why (docs/protocol.md). */
export type ChallengeRemoval = 'accepted' | 'cancelled' | 'declined' | 'expired';
export type DeclineReason = 'generic' | 'later' | 'time_control' | 'rated' | 'casual' | 'too_many_games';

// ---- accounts and the archive (servers with a database) ----

export type RatingCategory = 'bullet' | 'blitz' | 'rapid' | 'classical';

export interface Rating {
  rating: number;
  deviation: number;
  games: number;
  provisional: boolean;
}

/** A player's profile ("player", the reply to player_get). */
export interface Profile extends PlayerRef {
  username: string | null;
  online: boolean;
  created_at: number;
  ratings: Partial<Record<RatingCategory, Rating>>;
}

export interface ArchivedSide {
  id: string | null;
  name: string;
  bot?: boolean;
  rating?: number;
  rating_diff?: number;
}

/** A stored game: in lists without moves, from game_record with them. */
export interface ArchivedGame {
  id: string;
  status: string;
  white: ArchivedSide;
  black: ArchivedSide;
  time: TimeControl;
  rated: boolean;
  category: RatingCategory | null;
  result: GameResult | null;
  reason: Termination | null;
  winner: Color | null;
  ply: number;
  created_at: number;
  ended_at: number | null;
  initial_fen?: string;
  fen?: string;
  moves?: string[];
  san?: string[];
  /** The mover's clock after each ply (null for untimed plies). */
  clocks?: (number | null)[];
}

export interface LeaderboardRow {
  rank: number;
  id: string;
  name: string;
  bot?: boolean;
  rating: number;
  deviation: number;
  games: number;
}

// ---- client to server ----

type GameCommand<T extends string> = { type: T; game: string };

export type ClientMessage =
  | { type: 'hello'; protocol: number; token?: string; name?: string }
  | { type: 'ping' }
  | { type: 'lobby_subscribe' }
  | { type: 'lobby_unsubscribe' }
  | { type: 'live_games'; limit?: number }
  | { type: 'watch'; game: string }
  | { type: 'unwatch'; game: string }
  | { type: 'seek_create'; time: TimeControl; color?: ColorChoice; rated?: boolean }
  | { type: 'seek_cancel'; seek: string }
  | { type: 'seek_accept'; seek: string }
  | { type: 'challenge_create'; time: TimeControl; color?: ColorChoice; player?: string; rated?: boolean }
  | { type: 'challenge_decline'; challenge: string; reason?: DeclineReason }
  | { type: 'challenge_cancel'; challenge: string }
  | { type: 'challenge_accept'; challenge: string }
  | { type: 'challenge_get'; challenge: string }
  | { type: 'computer_play'; level: number; time: TimeControl; color?: ColorChoice }
  | { type: 'move'; game: string; move: string; ply?: number }
  | GameCommand<'resign'>
  | GameCommand<'abort'>
  | GameCommand<'draw_offer'>
  | GameCommand<'draw_accept'>
  | GameCommand<'draw_decline'>
  | GameCommand<'draw_claim'>
  | GameCommand<'takeback_propose'>
  | GameCommand<'takeback_accept'>
  | GameCommand<'takeback_decline'>
  | GameCommand<'rematch_offer'>
  | GameCommand<'rematch_accept'>
  | GameCommand<'rematch_decline'>
  | { type: 'abandon_claim'; game: string; result: 'win' | 'draw' }
  | { type: 'chat'; game: string; text: string; room?: ChatRoom }
  | { type: 'register'; username: string; password: string }
  | { type: 'login'; username: string; password: string }
  | { type: 'logout' }
  | { type: 'player_get'; player?: string; username?: string }
  | { type: 'games_list'; player: string; page?: number; limit?: number }
  | { type: 'game_record'; game: string }
  | { type: 'leaderboard'; category: RatingCategory; limit?: number }
  | { type: 'bot_create'; username: string }
  | { type: 'bot_token_create'; username: string }
  | { type: 'bot_token_revoke'; username: string }
  | { type: 'bots_list' }
  | {
      type: 'analyse';
      fen?: string;
      game?: string;
      ply?: number;
      moves?: string[];
      depth?: number;
      movetime?: number;
      multipv?: number;
    }
  | { type: 'analysis_stop'; analysis?: number };

export type RequestId = number | string;

// ---- server to client ----

interface GameEvent<T extends string> {
  type: T;
  game: string;
  v: number;
}

export type ServerMessage = (
  | { type: 'welcome'; protocol: number; player: PlayerRef; token: string; games: GameFull[] }
  | { type: 'pong' }
  | { type: 'ok' }
  | { type: 'error'; code: string; message: string; field?: string }
  | { type: 'seeks'; seeks: Seek[] }
  | { type: 'seek_added'; seek: Seek }
  | { type: 'seek_removed'; seek: string }
  | { type: 'challenge_created'; challenge: Seek }
  | { type: 'challenge_removed'; challenge: string; reason?: ChallengeRemoval; decline_reason?: DeclineReason }
  | { type: 'challenge_received'; challenge: Seek }
  | { type: 'bot_created'; bot: PlayerRef; token: string }
  | { type: 'bot_token'; username: string; token: string }
  | { type: 'bot_token_revoked'; username: string }
  | { type: 'bots'; bots: OwnedBot[] }
  | { type: 'challenge'; challenge: Seek }
  | { type: 'live_games'; games: GameSummary[] }
  | { type: 'game'; game: GameFull }
  | { type: 'game_started'; game: GameFull }
  | (GameEvent<'move'> & {
      ply: number;
      uci: string;
      san: string;
      fen: string;
      turn: Color;
      clock: Clocks | null;
    })
  | (GameEvent<'game_end'> & {
      result: GameResult;
      reason: Termination;
      winner: Color | null;
      clock: Clocks | null;
    })
  | (GameEvent<'offer'> & { kind: OfferKind; by: Color })
  | (GameEvent<'offer_declined'> & { kind: OfferKind; by: Color })
  | (GameEvent<'takeback'> & {
      undone: number;
      ply: number;
      fen: string;
      turn: Color;
      clock: Clocks | null;
    })
  | (GameEvent<'presence'> & { color: Color; connected: boolean; claim_after_ms?: number })
  | (GameEvent<'chat'> & ChatLine)
  | (GameEvent<'rematch'> & { next: string })
  // The computer's search in a game against it (no "v": not part of the game's history).
  | { type: 'computer_thinking'; game: string; ply: number; thinking: boolean }
  | ({ type: 'computer_analysis'; game: string; ply: number } & SearchLine)
  // Free analysis (analyse): its start, one line per completed depth, and its end.
  | { type: 'analysis_started'; analysis: number; fen: string; movetime: number; multipv: number }
  | ({ type: 'analysis'; analysis: number } & SearchLine)
  | {
      type: 'analysis_done';
      analysis: number;
      reason: 'limit' | 'stopped' | string;
      best?: { uci: string; san: string } | null;
    }
  | { type: 'registered'; player: PlayerRef }
  | { type: 'session'; token: string; player: PlayerRef }
  | { type: 'logged_out' }
  | { type: 'player'; player: Profile }
  | { type: 'games'; player: string; page: number; limit: number; more: boolean; games: ArchivedGame[] }
  | { type: 'game_record'; game: ArchivedGame }
  | { type: 'leaderboard'; category: RatingCategory; players: LeaderboardRow[] }
) & { id?: RequestId };

export type ServerMessageOf<T extends ServerMessage['type']> = Extract<ServerMessage, { type: T }>;

/** The game events: messages about one game, carrying "game" as an id and "v". */
export type GameEventMessage = ServerMessageOf<
  'move' | 'game_end' | 'offer' | 'offer_declined' | 'takeback' | 'presence' | 'chat' | 'rematch'
>;

const GAME_EVENT_TYPES = new Set([
  'move',
  'game_end',
  'offer',
  'offer_declined',
  'takeback',
  'presence',
  'chat',
  'rematch',
]);

export function isGameEvent(msg: ServerMessage): msg is GameEventMessage {
  return GAME_EVENT_TYPES.has(msg.type);
}

/**
 * Checks the shape of a decoded frame just enough to dispatch on it: an object with a string
 * type. Returns the message or null.
 */
export function parseServerMessage(text: string): ServerMessage | null {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return null;
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return null;
  if (typeof (value as { type?: unknown }).type !== 'string') return null;
  return value as ServerMessage;
}

/** The other colour. */
export function opposite(color: Color): Color {
  return color === 'white' ? 'black' : 'white';
}
