/*
 * Protocol v1 between the browser and the server, as TypeScript types: every message a client
 * may send and every message the server sends, over one WebSocket at /ws carrying JSON text
 * frames. The messages themselves (ClientMessage, ServerMessage, the words a client sends, the
 * error codes) are generated from the server's declaration, server/src/proto/messages.def, into
 * messages.gen.ts and re-exported here; this file keeps by hand the shapes inside them (players,
 * games, seeks, ...), which the declaration names. docs/protocol.md describes the same messages
 * for people.
 *
 * A request may carry an "id" (number or string); the reply (a result event or an error)
 * echoes it. Events about a game carry the game id and "v", the game's version after the event.
 */
import type {
  ChallengeRemovedMessage,
  ChatRoom,
  ColorChoice,
  ModAction,
  RatingCategory,
  ReportKind,
  ServerMessage as DeclaredServerMessage,
  Variant,
  WelcomeMessage,
} from './messages.gen';

export type * from './messages.gen';

export const PROTOCOL_VERSION = 1;

export type Color = 'white' | 'black';

/** "unlimited", minutes (may be fractional, e.g. 0.25) plus increment seconds, or a daily
 * game's days per move (1, 2, 3, 5, 7 or 14). */
export type TimeControl = 'unlimited' | { minutes: number; increment: number } | { days: number };

export interface PlayerRef {
  id: string;
  name: string;
  /** Whether the player has an account (servers with accounts say so). */
  registered?: boolean;
  bot?: boolean;
  /** The computer's seat in a game against it: its level (1-8); its id is computer-<level>. */
  computer?: number;
  /** In a game (its state or summary): an account's rating in the game's category (at the start
   * of a rated game). */
  rating?: number;
  /** The rating is provisional (shown with a "?"). */
  provisional?: boolean;
}

export interface GamePlayer extends PlayerRef {
  connected: boolean;
}

export interface Clocks {
  white: number;
  black: number;
  /** Daily games: when the side to move's time is up (Unix milliseconds), while it runs. */
  deadline?: number;
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
  | 'abandoned'
  | 'three_check'
  | 'king_of_the_hill';

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

/** The legal destinations of the side to move, origin square to destination squares (lichess's
 * dests); a castling king lists its rook's square and its own destination (g1, c1). */
export type Dests = Record<string, string[]>;

/** The full state of a game ("game", "game_started", the welcome's games, GET /api/games/<id>). */
export interface GameFull {
  id: string;
  v: number;
  white: GamePlayer;
  black: GamePlayer;
  time: TimeControl;
  status: 'playing' | 'ended';
  /** When the game started (Unix milliseconds). */
  created?: number;
  /** Whether the game counts for ratings (servers with accounts say so). */
  rated?: boolean;
  /** Its rules and start (docs/protocol.md, "Variants"). */
  variant?: Variant;
  /** Chess960: the start array's number (0-959; 518 is the usual array). */
  position?: number;
  /** Three-check: the checks each side has given. */
  checks?: Record<Color, number>;
  initial_fen: string;
  moves: string[];
  san: string[];
  ply: number;
  /** Its opening so far (docs/openings.md), when its moves from the standard start have reached
   * a named position; move events do not update it (opening_lookup does). */
  opening?: Opening;
  fen: string;
  turn: Color;
  clock: Clocks | null;
  clock_running: Color | null;
  /** While the game is live: where the side to move may move (its move events carry it too). */
  dests?: Dests;
  result?: GameResult;
  reason?: Termination;
  winner?: Color | null;
  offers: Record<OfferKind, Color | null>;
  rematch: string | null;
  /** An arena tournament's game: the arena, and which sides went berserk. */
  arena?: { id: string; name: string };
  berserk?: { white: boolean; black: boolean };
  chat: ChatLine[];
}

/** A live game in lists. */
export interface GameSummary {
  id: string;
  white: PlayerRef;
  black: PlayerRef;
  time: TimeControl;
  variant?: Variant;
  /** Chess960: the array's number. */
  position?: number;
  ply: number;
  fen: string;
  turn: Color;
  clock: Clocks | null;
}

/** One of the player's games in progress (my_games). */
export interface MyGame extends GameSummary {
  color: Color;
  my_turn: boolean;
  last_move: string | null;
}

/** A seek in the lobby, or a challenge by link (which has a url). */
export interface Seek {
  id: string;
  player: PlayerRef;
  time: TimeControl;
  color: ColorChoice;
  created: number;
  /** How its game starts; a Chess960 seek without a position draws one when the game starts. */
  variant?: Variant;
  position?: number;
  /** fromPosition: the start. */
  fen?: string;
  url?: string;
  /** A challenge: the creator's colour, drawn when it was made (a seek's is drawn on acceptance). */
  final_color?: 'white' | 'black';
  /** A direct challenge: the one player invited, and whether the game would be rated. */
  to?: PlayerRef;
  rated?: boolean;
  casual?: boolean;
}

/** An arena tournament's state (docs/tournaments.md). */
export type ArenaStatus = 'created' | 'started' | 'finished';

/** An arena in arena_list; ends = starts + minutes. creator: null for the operator's. */
export interface ArenaSummary {
  id: string;
  name: string;
  creator: string | null;
  time: TimeControl;
  rated: boolean;
  starts: number;
  minutes: number;
  ends: number;
  status: ArenaStatus;
  players: number;
}

/** One place in an arena's standings; sheet: the points of each game, in order. */
export interface ArenaStanding {
  rank: number;
  player: { id: string; name: string };
  rating: number;
  score: number;
  games: number;
  wins: number;
  draws: number;
  losses: number;
  performance: number;
  fire: boolean;
  sheet: number[];
  berserks: number;
  withdrawn?: boolean;
  playing?: boolean;
}

/** An arena's full state: its standings (the first 100), the podium once finished, and the
 * viewer's own place and game in progress when it joined. */
export interface ArenaFull extends ArenaSummary {
  v: number;
  standings: ArenaStanding[];
  podium?: ArenaStanding[];
  me?: ArenaStanding;
  game?: string;
}

/** A bot this account owns (bots_list), with how many of its tokens work. */
export interface OwnedBot extends PlayerRef {
  created_at: number;
  tokens: number;
}

/** One of the account's working sessions (sessions_list): its id (not its token), when it was
 * created and last said hello (null: not since), and whether it is this connection's. */
export interface SessionInfo {
  id: string;
  created_at: number;
  last_seen_at: number | null;
  current: boolean;
}

/** One of the account's personal API access tokens (api_tokens_list, api_token_created): its id
 * (not its text), what it is for, its scopes comma-separated ("challenge:read,board:play"; ""
 * for none), when it was created and last used (null: not yet). */
export interface ApiTokenInfo {
  id: string;
  description: string;
  scopes: string;
  created_at: number;
  last_used_at: number | null;
}

/** An account's player settings (settings_set, settings; docs/protocol.md, "Player settings"):
 * every key optional (absent: the client's default); the server refuses unknown keys and values
 * outside these (BAD_SETTINGS). */
export interface PlayerSettings {
  board?: 'brown' | 'blue' | 'green' | 'purple' | 'grey';
  pieces?: 'cburnett' | 'merida' | 'wikimedia';
  theme?: 'system' | 'light' | 'dark';
  /** percent of the largest board, 50 to 100 */
  board_size?: number;
  coordinates?: boolean;
  animation?: 'none' | 'fast' | 'normal' | 'slow';
  confirm_move?: boolean;
  auto_queen?: 'always' | 'never';
  /** 0 to 100 */
  volume?: number;
  zen?: boolean;
}

/** Why a challenge went away; a declined one also says why (DeclineReason). */
export type ChallengeRemoval = 'accepted' | 'cancelled' | 'declined' | 'expired';

// ---- moderation (docs/moderation.md) ----

/** A player named in a block list, a report or the moderation log. */
export interface NamedPlayer {
  id: string;
  name: string;
}

/** A report, as moderators see it (mod_reports); closed ones have closed_at, closed_by, note. */
export interface ModReport {
  id: number;
  reporter: NamedPlayer;
  player: NamedPlayer;
  kind: ReportKind;
  text: string;
  game?: string;
  created_at: number;
  closed_at?: number;
  closed_by?: NamedPlayer | null;
  note?: string;
}

/** One entry of the moderation log: a moderator's action, a report resolved, an admin grant
 * (moderator null: the server's configuration). */
export interface ModLogEntry {
  id: number;
  at: number;
  moderator: NamedPlayer | null;
  action: ModAction | 'resolve' | 'grant';
  player: NamedPlayer | null;
  report?: number;
  note: string;
}

// ---- accounts and the archive (servers with a database) ----

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
  /** player_get: the rating after each of the last 500 rated games, [time, rating], oldest first. */
  rating_history?: Partial<Record<RatingCategory, [number, number][]>>;
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
  /** How it started (a standard game from a FEN, imported, is fromPosition). */
  variant?: Variant;
  /** Chess960: the start array's number. */
  position?: number;
  /** Its computer analysis, done or under way (game_record and GET /api/games/{id} only). */
  analysis?: GameAnalysis;
  /** Its opening (docs/openings.md), when its moves from the standard start reach a named
   * position. */
  opening?: Opening;
  /** An arena tournament's game: the arena (docs/tournaments.md). */
  arena?: { id: string; name: string };
}

/** An opening as lichess writes it: the ECO code, the name, and the ply after which the named
 * position stands (docs/openings.md). */
export interface Opening {
  eco: string;
  name: string;
  ply: number;
}

/** A player's rating in a rated game's category, before and after the game (game_end). */
export interface RatingChange {
  before: number;
  after: number;
  diff: number;
}

export type RatingChanges = Partial<Record<Color, RatingChange>>;

export interface LeaderboardRow {
  rank: number;
  id: string;
  name: string;
  bot?: boolean;
  rating: number;
  deviation: number;
  games: number;
}

export type RequestId = number | string;

/**
 * The server's messages as this client reads them (this name takes precedence over the generated
 * ServerMessage re-exported above): the declared ones with two differences. A browser is never a
 * bot, so its welcome always carries a token. challenge_removed always has a reason, but some of
 * the client's tests build it without one.
 */
export type ServerMessage =
  | Exclude<DeclaredServerMessage, { type: 'welcome' | 'challenge_removed' }>
  | (WelcomeMessage & { token: string })
  | (Omit<ChallengeRemovedMessage, 'reason'> & Partial<Pick<ChallengeRemovedMessage, 'reason'>>);

export type ServerMessageOf<T extends ServerMessage['type']> = Extract<ServerMessage, { type: T }>;

/** The game events: messages about one game, carrying "game" as an id and "v". */
export type GameEventMessage = ServerMessageOf<
  | 'move'
  | 'game_end'
  | 'offer'
  | 'offer_declined'
  | 'takeback'
  | 'time_given'
  | 'presence'
  | 'chat'
  | 'rematch'
  | 'berserk'
>;

const GAME_EVENT_TYPES = new Set([
  'move',
  'game_end',
  'offer',
  'offer_declined',
  'takeback',
  'time_given',
  'presence',
  'chat',
  'rematch',
  'berserk',
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

/** How a move is judged by the computer analysis (docs/analysis.md). */
export type AnalysisJudgement = 'inaccuracy' | 'mistake' | 'blunder';

/** One position of a game's computer analysis: the position after `ply` plies. */
export interface AnalysedPosition {
  ply: number;
  /** White's win percent, 0 to 100 (the evaluation graph) */
  win: number;
  /** centipawns, White's view; absent for a mate and at a final position */
  cp?: number;
  /** moves to mate, positive when White mates */
  mate?: number;
  /** the search's depth; absent at a final position (checkmate or stalemate) */
  depth?: number;
  /** the engine's best move here, UCI */
  best?: string;
  /** the best line from here, SAN */
  line?: string[];
  /** once done, for ply >= 1: the judgement of the move that led here */
  judgement?: AnalysisJudgement;
  /** with judgement: the best move instead of it, SAN */
  better?: string;
}

/** A side's figures in an analysed game. */
export interface AnalysisSide {
  /** percent */
  accuracy: number;
  /** average centipawn loss */
  acpl: number;
  inaccuracies: number;
  mistakes: number;
  blunders: number;
}

/** A finished game's computer analysis (game_analysis; GET /api/games/{id} "analysis"). */
export interface GameAnalysis {
  state: 'running' | 'done';
  /** positions to search: the game's plies + 1 */
  positions: number;
  /** positions searched so far */
  searched: number;
  /** the search budget of each position */
  nodes: number;
  /** the positions searched so far, by ply */
  plies: AnalysedPosition[];
  /** once done; a side without moves has none */
  accuracy?: { white?: AnalysisSide; black?: AnalysisSide };
}
