// Generated from server/src/proto/messages.def by server/tools/proto_schema.c: do not edit.
// Regenerate with: cmake --build --preset release --target update_messages_ts
//
// Protocol v1 (docs/protocol.md): every message a client sends (ClientMessage) and every
// message the server sends (ServerMessage). The shapes inside them are kept by hand in
// protocol.ts, which re-exports these types.
import type {
  ApiTokenInfo,
  ArchivedGame,
  ArenaFull,
  ArenaStanding,
  ArenaStatus,
  ArenaSummary,
  ChallengeRemoval,
  Clocks,
  Color,
  Dests,
  EngineScore,
  GameAnalysis,
  GameFull,
  GameResult,
  GameSummary,
  LeaderboardRow,
  ModLogEntry,
  ModReport,
  MyGame,
  NamedPlayer,
  OfferKind,
  Opening,
  OwnedBot,
  PlayerRef,
  PlayerSettings,
  Profile,
  RatingChanges,
  RequestId,
  Seek,
  SessionInfo,
  Termination,
  TimeControl,
} from './protocol';

// ---- words a client sends ----

/** "color" */
export type ColorChoice = 'white' | 'black' | 'random';

/** "room" */
export type ChatRoom = 'players' | 'spectators';

/** "result" */
export type ClaimResult = 'draw' | 'win';

/** "category" */
export type RatingCategory =
  | 'bullet'
  | 'blitz'
  | 'rapid'
  | 'classical'
  | 'correspondence'
  | 'chess960'
  | 'kingOfTheHill'
  | 'threeCheck';

/** "reason" */
export type DeclineReason =
  | 'generic'
  | 'later'
  | 'time_control'
  | 'rated'
  | 'casual'
  | 'too_many_games';

/** "action" */
export type ModAction = 'mute' | 'unmute' | 'ban' | 'unban' | 'close' | 'reopen';

/** "kind" */
export type ReportKind = 'cheat' | 'abuse' | 'spam' | 'other';

/** "variant" */
export type Variant = 'standard' | 'chess960' | 'fromPosition' | 'threeCheck' | 'kingOfTheHill';

/** The stable codes of "error" messages (docs/protocol.md#errors). */
export type ErrorCode =
  | 'GAME_NOT_FOUND'
  | 'SEEK_NOT_FOUND'
  | 'CHALLENGE_NOT_FOUND'
  | 'NOT_A_PLAYER'
  | 'NOT_YOUR_TURN'
  | 'MOVE_SYNTAX'
  | 'ILLEGAL_MOVE'
  | 'AMBIGUOUS_MOVE'
  | 'STALE_PLY'
  | 'GAME_OVER'
  | 'GAME_NOT_OVER'
  | 'NO_DRAW_TO_CLAIM'
  | 'NO_OFFER'
  | 'OFFER_PENDING'
  | 'NOTHING_TO_TAKE_BACK'
  | 'TOO_LATE_TO_ABORT'
  | 'OWN_SEEK'
  | 'OWN_CHALLENGE'
  | 'TOO_MANY_SEEKS'
  | 'TOO_MANY_GAMES'
  | 'COMPUTER_UNAVAILABLE'
  | 'CHAT_INVALID'
  | 'CHAT_NOT_ALLOWED'
  | 'CHAT_RATE_LIMITED'
  | 'OPPONENT_CONNECTED'
  | 'CLAIM_TOO_EARLY'
  | 'CLAIM_NO_CLOCK'
  | 'NOT_OWNER'
  | 'REMATCH_DONE'
  | 'NOT_INVITED'
  | 'PLAYER_OFFLINE'
  | 'RATED_UNAVAILABLE'
  | 'CHAT_MUTED'
  | 'BLOCKED'
  | 'CANNOT_GIVE_TIME'
  | 'NO_SUCH_POOL'
  | 'BAD_POSITION'
  | 'POSITION_OVER'
  | 'DAILY_NEEDS_ACCOUNT'
  | 'ARENA_NOT_FOUND'
  | 'ARENA_FINISHED'
  | 'ARENA_NOT_JOINED'
  | 'ARENA_NEEDS_ACCOUNT'
  | 'TOO_MANY_ARENAS'
  | 'ARENA_BAD_SETTINGS'
  | 'BERSERK_NOT_ALLOWED'
  | 'NO_MEMORY'
  | 'BAD_JSON'
  | 'BAD_MESSAGE'
  | 'MESSAGE_TOO_LARGE'
  | 'BINARY_NOT_SUPPORTED'
  | 'UNKNOWN_TYPE'
  | 'BAD_FIELD'
  | 'HELLO_REQUIRED'
  | 'ALREADY_IDENTIFIED'
  | 'UNSUPPORTED_PROTOCOL'
  | 'BAD_TOKEN'
  | 'RATE_LIMITED'
  | 'TOO_MANY_WATCHED'
  | 'USERNAME_INVALID'
  | 'PASSWORD_INVALID'
  | 'USERNAME_TAKEN'
  | 'ALREADY_REGISTERED'
  | 'LOGIN_FAILED'
  | 'LOGIN_RATE_LIMITED'
  | 'PLAYER_NOT_FOUND'
  | 'PGN_INVALID'
  | 'STORE_UNAVAILABLE'
  | 'ANALYSIS_UNAVAILABLE'
  | 'ANALYSIS_LIMIT'
  | 'ANALYSIS_NOT_FOUND'
  | 'FEN_INVALID'
  | 'ACCOUNT_REQUIRED'
  | 'BOT_NOT_FOUND'
  | 'TOO_MANY_BOTS'
  | 'OWNER_UNREACHABLE'
  | 'NOT_ADMIN'
  | 'BANNED'
  | 'ACCOUNT_CLOSED'
  | 'SELF_TARGET'
  | 'REPORT_NOT_FOUND'
  | 'TOO_MANY_BLOCKS'
  | 'PASSWORD_MISMATCH'
  | 'SESSION_NOT_FOUND'
  | 'ACCOUNT_IN_GAME'
  | 'BAD_SCOPES'
  | 'TOO_MANY_TOKENS'
  | 'TOKEN_NOT_FOUND'
  | 'BAD_SETTINGS'
  | 'GAME_ANALYSIS_LIMIT'
  | 'ANALYSIS_QUEUE_FULL'
  | 'GAME_NOT_ANALYSED'
  | 'GAME_ANALYSIS_ASKED'
  | 'INTERNAL';

// ---- client to server ----

export interface SeekCreateRequest {
  type: 'seek_create';
  /** minutes from 0.25 to 180, increment 0 to 180 s */
  time: TimeControl;
  color?: ColorChoice;
  /** 1-100 bytes */
  fen?: string;
  rated?: boolean;
  variant?: Variant;
  /** 0 to 959 */
  position?: number;
  id?: RequestId;
}

export interface SeekCancelRequest {
  type: 'seek_cancel';
  /** 1-16 letters and digits */
  seek: string;
  id?: RequestId;
}

export interface SeekAcceptRequest {
  type: 'seek_accept';
  /** 1-16 letters and digits */
  seek: string;
  id?: RequestId;
}

export interface ChallengeCreateRequest {
  type: 'challenge_create';
  /** minutes from 0.25 to 180, increment 0 to 180 s */
  time: TimeControl;
  color?: ColorChoice;
  /** 1-16 letters and digits */
  player?: string;
  /** 1-100 bytes */
  fen?: string;
  rated?: boolean;
  variant?: Variant;
  /** 0 to 959 */
  position?: number;
  id?: RequestId;
}

export interface ChallengeCancelRequest {
  type: 'challenge_cancel';
  /** 1-16 letters and digits */
  challenge: string;
  id?: RequestId;
}

export interface ChallengeAcceptRequest {
  type: 'challenge_accept';
  /** 1-16 letters and digits */
  challenge: string;
  id?: RequestId;
}

export interface ComputerPlayRequest {
  type: 'computer_play';
  /** minutes from 0.25 to 180, increment 0 to 180 s */
  time: TimeControl;
  color?: ColorChoice;
  /** 1 to 8 */
  level: number;
  /** 1-100 bytes */
  fen?: string;
  variant?: Variant;
  /** 0 to 959 */
  position?: number;
  id?: RequestId;
}

export interface MoveRequest {
  type: 'move';
  /** 1-16 letters and digits */
  game: string;
  /** 1-16 bytes */
  move: string;
  /** 0 to 12000 */
  ply?: number;
  /** 0 to 10000 */
  lag?: number;
  premove?: boolean;
  id?: RequestId;
}

export interface ResignRequest {
  type: 'resign';
  /** 1-16 letters and digits */
  game: string;
  id?: RequestId;
}

export interface AbortRequest {
  type: 'abort';
  /** 1-16 letters and digits */
  game: string;
  id?: RequestId;
}

export interface DrawOfferRequest {
  type: 'draw_offer';
  /** 1-16 letters and digits */
  game: string;
  id?: RequestId;
}

export interface DrawAcceptRequest {
  type: 'draw_accept';
  /** 1-16 letters and digits */
  game: string;
  id?: RequestId;
}

export interface DrawDeclineRequest {
  type: 'draw_decline';
  /** 1-16 letters and digits */
  game: string;
  id?: RequestId;
}

export interface DrawClaimRequest {
  type: 'draw_claim';
  /** 1-16 letters and digits */
  game: string;
  id?: RequestId;
}

export interface TakebackProposeRequest {
  type: 'takeback_propose';
  /** 1-16 letters and digits */
  game: string;
  id?: RequestId;
}

export interface TakebackAcceptRequest {
  type: 'takeback_accept';
  /** 1-16 letters and digits */
  game: string;
  id?: RequestId;
}

export interface TakebackDeclineRequest {
  type: 'takeback_decline';
  /** 1-16 letters and digits */
  game: string;
  id?: RequestId;
}

export interface RematchOfferRequest {
  type: 'rematch_offer';
  /** 1-16 letters and digits */
  game: string;
  id?: RequestId;
}

export interface RematchAcceptRequest {
  type: 'rematch_accept';
  /** 1-16 letters and digits */
  game: string;
  id?: RequestId;
}

export interface RematchDeclineRequest {
  type: 'rematch_decline';
  /** 1-16 letters and digits */
  game: string;
  id?: RequestId;
}

export interface GiveTimeRequest {
  type: 'give_time';
  /** 1-16 letters and digits */
  game: string;
  id?: RequestId;
}

export interface AbandonClaimRequest {
  type: 'abandon_claim';
  /** 1-16 letters and digits */
  game: string;
  result: ClaimResult;
  id?: RequestId;
}

export interface ChatRequest {
  type: 'chat';
  /** 1-16 letters and digits */
  game: string;
  room?: ChatRoom;
  /** 1-1120 bytes */
  text: string;
  id?: RequestId;
}

export interface ChallengeDeclineRequest {
  type: 'challenge_decline';
  /** 1-16 letters and digits */
  challenge: string;
  reason?: DeclineReason;
  id?: RequestId;
}

/** May be sent before hello. */
export interface HelloRequest {
  type: 'hello';
  /** 1-64 letters and digits */
  token?: string;
  /** 2-20 letters, digits, _ or - */
  name?: string;
  /** 0 to 1000000 */
  protocol: number;
  id?: RequestId;
}

/** May be sent before hello. */
export interface PingRequest {
  type: 'ping';
  id?: RequestId;
}

export interface LobbySubscribeRequest {
  type: 'lobby_subscribe';
  id?: RequestId;
}

export interface LobbyUnsubscribeRequest {
  type: 'lobby_unsubscribe';
  id?: RequestId;
}

export interface ChallengeGetRequest {
  type: 'challenge_get';
  /** 1-16 letters and digits */
  challenge: string;
  id?: RequestId;
}

export interface LiveGamesRequest {
  type: 'live_games';
  /** 1 to 100 */
  limit?: number;
  id?: RequestId;
}

export interface WatchRequest {
  type: 'watch';
  /** 1-16 letters and digits */
  game: string;
  id?: RequestId;
}

export interface UnwatchRequest {
  type: 'unwatch';
  /** 1-16 letters and digits */
  game: string;
  id?: RequestId;
}

export interface RegisterRequest {
  type: 'register';
  /** 1-64 bytes */
  username: string;
  /** 1-256 bytes */
  password: string;
  id?: RequestId;
}

/** May be sent before hello. */
export interface LoginRequest {
  type: 'login';
  /** 1-64 bytes */
  username: string;
  /** 1-256 bytes */
  password: string;
  id?: RequestId;
}

export interface LogoutRequest {
  type: 'logout';
  id?: RequestId;
}

export interface PlayerGetRequest {
  type: 'player_get';
  /** 1-64 bytes */
  username?: string;
  /** 1-16 letters and digits */
  player?: string;
  id?: RequestId;
}

export interface GamesListRequest {
  type: 'games_list';
  /** 1 to 100 */
  limit?: number;
  /** 1-16 letters and digits */
  player: string;
  /** 1 to 100000 */
  page?: number;
  id?: RequestId;
}

export interface GameRecordRequest {
  type: 'game_record';
  /** 1-16 letters and digits */
  game: string;
  id?: RequestId;
}

export interface LeaderboardRequest {
  type: 'leaderboard';
  /** 1 to 100 */
  limit?: number;
  category: RatingCategory;
  id?: RequestId;
}

export interface PgnImportRequest {
  type: 'pgn_import';
  /** 1-1048576 bytes */
  pgn: string;
  id?: RequestId;
}

export interface BotCreateRequest {
  type: 'bot_create';
  /** 1-64 bytes */
  username: string;
  id?: RequestId;
}

export interface BotTokenCreateRequest {
  type: 'bot_token_create';
  /** 1-64 bytes */
  username: string;
  id?: RequestId;
}

export interface BotTokenRevokeRequest {
  type: 'bot_token_revoke';
  /** 1-64 bytes */
  username: string;
  id?: RequestId;
}

export interface BotsListRequest {
  type: 'bots_list';
  id?: RequestId;
}

export interface ReportRequest {
  type: 'report';
  /** 1-16 letters and digits */
  game?: string;
  /** 1-1120 bytes */
  text?: string;
  /** 1-16 letters and digits */
  player: string;
  kind: ReportKind;
  id?: RequestId;
}

export interface BlockRequest {
  type: 'block';
  /** 1-16 letters and digits */
  player: string;
  id?: RequestId;
}

export interface UnblockRequest {
  type: 'unblock';
  /** 1-16 letters and digits */
  player: string;
  id?: RequestId;
}

export interface BlocksListRequest {
  type: 'blocks_list';
  id?: RequestId;
}

export interface ModActionRequest {
  type: 'mod_action';
  /** 1-1120 bytes */
  text: string;
  /** 1-16 letters and digits */
  player: string;
  action: ModAction;
  id?: RequestId;
}

export interface ReportResolveRequest {
  type: 'report_resolve';
  /** 1-1120 bytes */
  text: string;
  /** 1 to 9007199254740991 */
  report: number;
  id?: RequestId;
}

export interface ModReportsRequest {
  type: 'mod_reports';
  id?: RequestId;
}

export interface ModLogRequest {
  type: 'mod_log';
  /** 1-16 letters and digits */
  player?: string;
  id?: RequestId;
}

export interface PasswordChangeRequest {
  type: 'password_change';
  /** 1-256 bytes */
  current: string;
  /** 1-256 bytes */
  new: string;
  id?: RequestId;
}

export interface SessionsListRequest {
  type: 'sessions_list';
  id?: RequestId;
}

export interface SessionRevokeRequest {
  type: 'session_revoke';
  /** 16-16 letters and digits */
  session: string;
  id?: RequestId;
}

export interface SessionsRevokeAllRequest {
  type: 'sessions_revoke_all';
  id?: RequestId;
}

export interface AccountDeleteRequest {
  type: 'account_delete';
  /** 1-256 bytes */
  password: string;
  id?: RequestId;
}

export interface ApiTokenCreateRequest {
  type: 'api_token_create';
  /** 1-100 bytes */
  description: string;
  /** 0-256 bytes */
  scopes?: string;
  id?: RequestId;
}

export interface ApiTokensListRequest {
  type: 'api_tokens_list';
  id?: RequestId;
}

export interface ApiTokenRevokeRequest {
  type: 'api_token_revoke';
  /** 16-16 letters and digits */
  token_id: string;
  id?: RequestId;
}

export interface SettingsSetRequest {
  type: 'settings_set';
  settings: PlayerSettings;
  id?: RequestId;
}

export interface PoolJoinRequest {
  type: 'pool_join';
  /** minutes from 0.25 to 180, increment 0 to 180 s */
  time: TimeControl;
  rated?: boolean;
  id?: RequestId;
}

export interface PoolLeaveRequest {
  type: 'pool_leave';
  id?: RequestId;
}

export interface GameAnalysisRequestRequest {
  type: 'game_analysis_request';
  /** 1-16 letters and digits */
  game: string;
  id?: RequestId;
}

export interface GameAnalysisGetRequest {
  type: 'game_analysis_get';
  /** 1-16 letters and digits */
  game: string;
  id?: RequestId;
}

export interface AnalyseRequest {
  type: 'analyse';
  /** 1-16 letters and digits */
  game?: string;
  /** 0 to 12000 */
  ply?: number;
  /** 1-100 bytes */
  fen?: string;
  /** at most 600 moves, UCI or SAN */
  moves?: string[];
  /** 1 to 60 */
  depth?: number;
  /** 10 to 3600000 */
  movetime?: number;
  /** 1 to 5 */
  multipv?: number;
  id?: RequestId;
}

export interface AnalysisStopRequest {
  type: 'analysis_stop';
  /** 1 to 9007199254740991 */
  analysis?: number;
  id?: RequestId;
}

export interface OpeningLookupRequest {
  type: 'opening_lookup';
  /** 1-100 bytes */
  fen?: string;
  /** at most 600 moves, UCI or SAN */
  moves?: string[];
  id?: RequestId;
}

export interface MyGamesRequest {
  type: 'my_games';
  id?: RequestId;
}

export interface ArenaCreateRequest {
  type: 'arena_create';
  /** minutes from 0.25 to 180, increment 0 to 180 s */
  time: TimeControl;
  rated?: boolean;
  /** 1-64 bytes */
  name: string;
  /** 1 to 720 */
  minutes: number;
  /** 0 to 604800 */
  starts_in?: number;
  id?: RequestId;
}

export interface ArenaJoinRequest {
  type: 'arena_join';
  /** 1-16 letters and digits */
  arena: string;
  id?: RequestId;
}

export interface ArenaWithdrawRequest {
  type: 'arena_withdraw';
  /** 1-16 letters and digits */
  arena: string;
  id?: RequestId;
}

export interface ArenaBerserkRequest {
  type: 'arena_berserk';
  /** 1-16 letters and digits */
  game: string;
  id?: RequestId;
}

export interface ArenaListRequest {
  type: 'arena_list';
  id?: RequestId;
}

export interface ArenaWatchRequest {
  type: 'arena_watch';
  /** 1-16 letters and digits */
  arena: string;
  id?: RequestId;
}

export interface ArenaUnwatchRequest {
  type: 'arena_unwatch';
  /** 1-16 letters and digits */
  arena: string;
  id?: RequestId;
}

export type ClientMessage =
  | SeekCreateRequest
  | SeekCancelRequest
  | SeekAcceptRequest
  | ChallengeCreateRequest
  | ChallengeCancelRequest
  | ChallengeAcceptRequest
  | ComputerPlayRequest
  | MoveRequest
  | ResignRequest
  | AbortRequest
  | DrawOfferRequest
  | DrawAcceptRequest
  | DrawDeclineRequest
  | DrawClaimRequest
  | TakebackProposeRequest
  | TakebackAcceptRequest
  | TakebackDeclineRequest
  | RematchOfferRequest
  | RematchAcceptRequest
  | RematchDeclineRequest
  | GiveTimeRequest
  | AbandonClaimRequest
  | ChatRequest
  | ChallengeDeclineRequest
  | HelloRequest
  | PingRequest
  | LobbySubscribeRequest
  | LobbyUnsubscribeRequest
  | ChallengeGetRequest
  | LiveGamesRequest
  | WatchRequest
  | UnwatchRequest
  | RegisterRequest
  | LoginRequest
  | LogoutRequest
  | PlayerGetRequest
  | GamesListRequest
  | GameRecordRequest
  | LeaderboardRequest
  | PgnImportRequest
  | BotCreateRequest
  | BotTokenCreateRequest
  | BotTokenRevokeRequest
  | BotsListRequest
  | ReportRequest
  | BlockRequest
  | UnblockRequest
  | BlocksListRequest
  | ModActionRequest
  | ReportResolveRequest
  | ModReportsRequest
  | ModLogRequest
  | PasswordChangeRequest
  | SessionsListRequest
  | SessionRevokeRequest
  | SessionsRevokeAllRequest
  | AccountDeleteRequest
  | ApiTokenCreateRequest
  | ApiTokensListRequest
  | ApiTokenRevokeRequest
  | SettingsSetRequest
  | PoolJoinRequest
  | PoolLeaveRequest
  | GameAnalysisRequestRequest
  | GameAnalysisGetRequest
  | AnalyseRequest
  | AnalysisStopRequest
  | OpeningLookupRequest
  | MyGamesRequest
  | ArenaCreateRequest
  | ArenaJoinRequest
  | ArenaWithdrawRequest
  | ArenaBerserkRequest
  | ArenaListRequest
  | ArenaWatchRequest
  | ArenaUnwatchRequest;

// ---- server to client ----

export interface WelcomeMessage {
  type: 'welcome';
  protocol: number;
  player: PlayerRef;
  token?: string;
  games: GameFull[];
  admin?: boolean;
  id?: RequestId;
}

export interface PongMessage {
  type: 'pong';
  id?: RequestId;
}

export interface OkMessage {
  type: 'ok';
  id?: RequestId;
}

export interface ErrorMessage {
  type: 'error';
  code: ErrorCode;
  message: string;
  field?: string;
  id?: RequestId;
}

export interface SeeksMessage {
  type: 'seeks';
  seeks: Seek[];
  id?: RequestId;
}

export interface SeekAddedMessage {
  type: 'seek_added';
  seek: Seek;
  id?: RequestId;
}

export interface SeekRemovedMessage {
  type: 'seek_removed';
  seek: string;
  id?: RequestId;
}

export interface ChallengeCreatedMessage {
  type: 'challenge_created';
  challenge: Seek;
  id?: RequestId;
}

export interface ChallengeReceivedMessage {
  type: 'challenge_received';
  challenge: Seek;
  id?: RequestId;
}

export interface ChallengeMessage {
  type: 'challenge';
  challenge: Seek;
  id?: RequestId;
}

export interface ChallengeRemovedMessage {
  type: 'challenge_removed';
  challenge: string;
  reason: ChallengeRemoval;
  decline_reason?: DeclineReason;
  id?: RequestId;
}

export interface LiveGamesMessage {
  type: 'live_games';
  games: GameSummary[];
  id?: RequestId;
}

export interface PoolJoinedMessage {
  type: 'pool_joined';
  time: TimeControl;
  rated: boolean;
  waiting: number;
  id?: RequestId;
}

export interface PoolLeftMessage {
  type: 'pool_left';
  id?: RequestId;
}

export interface GameMessage {
  type: 'game';
  game: GameFull;
  id?: RequestId;
}

export interface GameStartedMessage {
  type: 'game_started';
  game: GameFull;
  id?: RequestId;
}

export interface MoveMessage {
  type: 'move';
  game: string;
  v: number;
  ply: number;
  uci: string;
  san: string;
  fen: string;
  turn: Color;
  clock: Clocks | null;
  legal_moves?: string[];
  dests?: Dests;
  id?: RequestId;
}

export interface GameEndMessage {
  type: 'game_end';
  game: string;
  v: number;
  result: GameResult;
  reason: Termination;
  winner: Color | null;
  clock: Clocks | null;
  ratings?: RatingChanges;
  id?: RequestId;
}

export interface OfferMessage {
  type: 'offer';
  game: string;
  v: number;
  kind: OfferKind;
  by: Color;
  id?: RequestId;
}

export interface OfferDeclinedMessage {
  type: 'offer_declined';
  game: string;
  v: number;
  kind: OfferKind;
  by: Color;
  id?: RequestId;
}

export interface TakebackMessage {
  type: 'takeback';
  game: string;
  v: number;
  undone: number;
  ply: number;
  fen: string;
  turn: Color;
  clock: Clocks | null;
  legal_moves?: string[];
  dests?: Dests;
  id?: RequestId;
}

export interface TimeGivenMessage {
  type: 'time_given';
  game: string;
  v: number;
  to: Color;
  ms: number;
  clock: Clocks;
  id?: RequestId;
}

export interface SpectatorsMessage {
  type: 'spectators';
  game: string;
  count: number;
  id?: RequestId;
}

export interface PresenceMessage {
  type: 'presence';
  game: string;
  v: number;
  color: Color;
  connected: boolean;
  claim_after_ms?: number;
  id?: RequestId;
}

export interface ChatMessage {
  type: 'chat';
  game: string;
  v: number;
  room: ChatRoom;
  from: PlayerRef;
  text: string;
  time: number;
  id?: RequestId;
}

export interface RematchMessage {
  type: 'rematch';
  game: string;
  v: number;
  next: string;
  id?: RequestId;
}

export interface ComputerThinkingMessage {
  type: 'computer_thinking';
  game: string;
  ply: number;
  thinking: boolean;
  id?: RequestId;
}

export interface ComputerAnalysisMessage {
  type: 'computer_analysis';
  game: string;
  ply: number;
  depth: number;
  seldepth: number;
  multipv: number;
  score: EngineScore;
  bound?: 'lower' | 'upper';
  nodes: number;
  nps: number;
  time_ms: number;
  pv: string[];
  id?: RequestId;
}

export interface AnalysisStartedMessage {
  type: 'analysis_started';
  analysis: number;
  fen: string;
  movetime: number;
  multipv: number;
  id?: RequestId;
}

export interface AnalysisMessage {
  type: 'analysis';
  analysis: number;
  depth: number;
  seldepth: number;
  multipv: number;
  score: EngineScore;
  bound?: 'lower' | 'upper';
  nodes: number;
  nps: number;
  time_ms: number;
  pv: string[];
  id?: RequestId;
}

export interface AnalysisDoneMessage {
  type: 'analysis_done';
  analysis: number;
  reason: 'limit' | 'stopped';
  best?: { uci: string; san: string };
  id?: RequestId;
}

export interface RegisteredMessage {
  type: 'registered';
  player: PlayerRef;
  id?: RequestId;
}

export interface SessionMessage {
  type: 'session';
  token: string;
  player: PlayerRef;
  id?: RequestId;
}

export interface LoggedOutMessage {
  type: 'logged_out';
  id?: RequestId;
}

export interface BotCreatedMessage {
  type: 'bot_created';
  bot: PlayerRef;
  token: string;
  id?: RequestId;
}

export interface BotTokenMessage {
  type: 'bot_token';
  username: string;
  token: string;
  id?: RequestId;
}

export interface BotTokenRevokedMessage {
  type: 'bot_token_revoked';
  username: string;
  id?: RequestId;
}

export interface BotsMessage {
  type: 'bots';
  bots: OwnedBot[];
  id?: RequestId;
}

export interface PlayerMessage {
  type: 'player';
  player: Profile;
  id?: RequestId;
}

export interface GamesMessage {
  type: 'games';
  player: string;
  page: number;
  limit: number;
  more: boolean;
  games: ArchivedGame[];
  id?: RequestId;
}

export interface GameRecordMessage {
  type: 'game_record';
  game: ArchivedGame;
  id?: RequestId;
}

export interface LeaderboardMessage {
  type: 'leaderboard';
  category: RatingCategory;
  players: LeaderboardRow[];
  id?: RequestId;
}

export interface ImportedMessage {
  type: 'imported';
  game: string;
  id?: RequestId;
}

export interface ReportReceivedMessage {
  type: 'report_received';
  player: string;
  id?: RequestId;
}

export interface BlockSetMessage {
  type: 'block_set';
  player: string;
  blocked: boolean;
  id?: RequestId;
}

export interface BlocksMessage {
  type: 'blocks';
  players: NamedPlayer[];
  id?: RequestId;
}

export interface ModDoneMessage {
  type: 'mod_done';
  action: string;
  player?: string;
  report?: number;
  id?: RequestId;
}

export interface ModReportsMessage {
  type: 'mod_reports';
  reports: ModReport[];
  id?: RequestId;
}

export interface ModLogMessage {
  type: 'mod_log';
  entries: ModLogEntry[];
  id?: RequestId;
}

export interface PasswordChangedMessage {
  type: 'password_changed';
  id?: RequestId;
}

export interface SessionsMessage {
  type: 'sessions';
  sessions: SessionInfo[];
  id?: RequestId;
}

export interface SessionRevokedMessage {
  type: 'session_revoked';
  session: string;
  id?: RequestId;
}

export interface SessionsRevokedMessage {
  type: 'sessions_revoked';
  id?: RequestId;
}

export interface AccountDeletedMessage {
  type: 'account_deleted';
  id?: RequestId;
}

export interface ApiTokenCreatedMessage {
  type: 'api_token_created';
  token: string;
  info: ApiTokenInfo;
  id?: RequestId;
}

export interface ApiTokensMessage {
  type: 'api_tokens';
  tokens: ApiTokenInfo[];
  id?: RequestId;
}

export interface ApiTokenRevokedMessage {
  type: 'api_token_revoked';
  token_id: string;
  id?: RequestId;
}

export interface SettingsMessage {
  type: 'settings';
  settings: PlayerSettings;
  id?: RequestId;
}

export interface GameAnalysisMessage {
  type: 'game_analysis';
  game: string;
  analysis: GameAnalysis;
  id?: RequestId;
}

export interface GameAnalysisProgressMessage {
  type: 'game_analysis_progress';
  game: string;
  searched: number;
  positions: number;
  id?: RequestId;
}

export interface OpeningMessage {
  type: 'opening';
  opening: Opening | null;
  id?: RequestId;
}

export interface MyGamesMessage {
  type: 'my_games';
  games: MyGame[];
  id?: RequestId;
}

export interface ArenaMessage {
  type: 'arena';
  arena: ArenaFull;
  id?: RequestId;
}

export interface ArenaStandingsMessage {
  type: 'arena_standings';
  arena: string;
  v: number;
  status: ArenaStatus;
  players: number;
  standings: ArenaStanding[];
  podium?: ArenaStanding[];
  me?: ArenaStanding;
  game?: string;
  id?: RequestId;
}

export interface ArenaListMessage {
  type: 'arena_list';
  arenas: ArenaSummary[];
  id?: RequestId;
}

export interface BerserkMessage {
  type: 'berserk';
  game: string;
  v: number;
  color: Color;
  clock: Clocks;
  id?: RequestId;
}

export type ServerMessage =
  | WelcomeMessage
  | PongMessage
  | OkMessage
  | ErrorMessage
  | SeeksMessage
  | SeekAddedMessage
  | SeekRemovedMessage
  | ChallengeCreatedMessage
  | ChallengeReceivedMessage
  | ChallengeMessage
  | ChallengeRemovedMessage
  | LiveGamesMessage
  | PoolJoinedMessage
  | PoolLeftMessage
  | GameMessage
  | GameStartedMessage
  | MoveMessage
  | GameEndMessage
  | OfferMessage
  | OfferDeclinedMessage
  | TakebackMessage
  | TimeGivenMessage
  | SpectatorsMessage
  | PresenceMessage
  | ChatMessage
  | RematchMessage
  | ComputerThinkingMessage
  | ComputerAnalysisMessage
  | AnalysisStartedMessage
  | AnalysisMessage
  | AnalysisDoneMessage
  | RegisteredMessage
  | SessionMessage
  | LoggedOutMessage
  | BotCreatedMessage
  | BotTokenMessage
  | BotTokenRevokedMessage
  | BotsMessage
  | PlayerMessage
  | GamesMessage
  | GameRecordMessage
  | LeaderboardMessage
  | ImportedMessage
  | ReportReceivedMessage
  | BlockSetMessage
  | BlocksMessage
  | ModDoneMessage
  | ModReportsMessage
  | ModLogMessage
  | PasswordChangedMessage
  | SessionsMessage
  | SessionRevokedMessage
  | SessionsRevokedMessage
  | AccountDeletedMessage
  | ApiTokenCreatedMessage
  | ApiTokensMessage
  | ApiTokenRevokedMessage
  | SettingsMessage
  | GameAnalysisMessage
  | GameAnalysisProgressMessage
  | OpeningMessage
  | MyGamesMessage
  | ArenaMessage
  | ArenaStandingsMessage
  | ArenaListMessage
  | BerserkMessage;
