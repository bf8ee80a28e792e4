/*
 * The store: the application state (state.ts), the socket that feeds it, and the actions the
 * pages call. React reads it through useSyncExternalStore (hooks/useStore.ts).
 *
 * Resynchronisation: after every welcome (the first and each reconnect) the store asks again
 * for what the pages use: the seek list when a lobby is open, the full state of every game a
 * page shows, the live games. The welcome itself carries the player's games in progress.
 * A game whose events stopped fitting (state.games[id].stale) is fetched again the same way.
 *
 * Actions return promises that resolve to the reply (or null after an error); errors also
 * become notices people read, so nothing fails silently.
 */
import { readableError } from '../lib/errors';
import { KEYS, type KeyValue } from '../lib/storage';
import type {
  ClientMessage,
  ColorChoice,
  LeaderboardRow,
  OwnedBot,
  Profile,
  RatingCategory,
  DeclineReason,
  Seek,
  ServerMessage,
  ServerMessageOf,
  TimeControl,
} from '../net/protocol';
import type { GameSocket } from '../net/socket';
import type { LocalMove } from '../lib/chess';
import { analysisActive, analysisAsked, analysisStarted } from './analysis';
import { initialState, reduceMessage, type AppState, type Notice } from './state';

export type GameCommand =
  | 'resign'
  | 'abort'
  | 'draw_offer'
  | 'draw_accept'
  | 'draw_decline'
  | 'draw_claim'
  | 'takeback_propose'
  | 'takeback_accept'
  | 'takeback_decline'
  | 'rematch_offer'
  | 'rematch_accept'
  | 'rematch_decline';

type Listener = () => void;
type GameStartedListener = (gameId: string, fromRequest: boolean) => void;

export class Store {
  private state: AppState = initialState;
  private readonly listeners = new Set<Listener>();
  private readonly startedListeners = new Set<GameStartedListener>();
  private lobbyUsers = 0;
  private liveUsers = 0;
  private readonly watched = new Map<string, number>();
  private readonly resyncing = new Set<string>();
  private noticeId = 1;
  /** Free analysis: the page's latest request, the server's running analysis (until its
   * analysis_done), who waits for that end, and the queue that orders starts and stops. */
  private analysisSeq = 0;
  private runningAnalysis: number | null = null;
  private analysisEnded: (() => void) | null = null;
  private analysisQueue: Promise<void> = Promise.resolve();
  private readonly socket: GameSocket;
  private readonly storage: KeyValue;

  constructor(socket: GameSocket, storage: KeyValue) {
    this.socket = socket;
    this.storage = storage;
    socket.onState((conn) => this.set({ ...this.state, conn }));
    socket.onMessage((msg, at) => this.received(msg, at));
    socket.onWelcome((msg, at) => this.welcomed(msg, at));
  }

  getState = (): AppState => this.state;

  subscribe = (listener: Listener): (() => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  /** Called when a game starts for this player (a seek or challenge accepted, a rematch). */
  onGameStarted(listener: GameStartedListener): () => void {
    this.startedListeners.add(listener);
    return () => this.startedListeners.delete(listener);
  }

  // ---- connection ----

  private received(msg: ServerMessage, at: number): void {
    const before = this.state;
    const next = reduceMessage(this.state, msg, at);
    if (next !== this.state) this.set(next);
    const declined = msg.type === 'challenge_removed' && msg.reason === 'declined' && before.challenges[msg.challenge];
    if (declined) this.notify(declineText(declined, msg.decline_reason), 'info');
    if (msg.type === 'analysis_done') this.analysisFinished(msg.analysis);
    if (msg.type === 'game_started') {
      for (const l of this.startedListeners) l(msg.game.id, msg.id !== undefined);
    }
    if (msg.type === 'game') this.resyncing.delete(msg.game.id);
    for (const game of Object.values(this.state.games)) {
      if (game.stale && !this.resyncing.has(game.id)) {
        this.resyncing.add(game.id);
        void this.fetchGame(game.id);
      }
    }
  }

  private welcomed(msg: ServerMessageOf<'welcome'>, at: number): void {
    this.storage.set(KEYS.token, msg.token);
    this.set(reduceMessage(this.state, msg, at));
    this.resyncing.clear();
    // Analyses end with their connection: one the page still shows starts again.
    if (this.runningAnalysis !== null) this.analysisFinished(this.runningAnalysis);
    const analysis = this.state.analysis;
    if (analysis && analysisActive(analysis)) this.analyse(analysis.fen, analysis.multipv);
    if (this.lobbyUsers > 0) this.socket.send({ type: 'lobby_subscribe' });
    if (this.liveUsers > 0) this.socket.send({ type: 'live_games', limit: 20 });
    for (const id of this.watched.keys()) void this.fetchGame(id);
    // The welcome does not say whether the player has an account; the profile does (on servers
    // with a database; others refuse, which changes nothing).
    if (msg.player.registered === undefined) {
      this.socket.request({ type: 'player_get', player: msg.player.id }).catch(() => undefined);
    }
  }

  private async fetchGame(id: string): Promise<void> {
    try {
      await this.socket.request({ type: 'watch', game: id });
    } catch (err) {
      this.resyncing.delete(id);
      const code = (err as { code?: string }).code;
      if (code === 'OFFLINE' || code === 'CONNECTION_LOST') return; // the next welcome retries
      // Not in memory: a server with a database may still have it in its archive.
      if (code === 'GAME_NOT_FOUND' && (await this.fetchRecord(id))) return;
      this.set({ ...this.state, gameErrors: { ...this.state.gameErrors, [id]: readableError(err) } });
    }
  }

  /** A finished game from the archive (the reducer stores it); false when there is none. */
  private async fetchRecord(id: string): Promise<boolean> {
    try {
      const reply = await this.socket.request({ type: 'game_record', game: id });
      return reply.type === 'game_record';
    } catch {
      return false;
    }
  }

  // ---- subscriptions held by pages ----

  /** The lobby's seek list, live while at least one caller holds it. Returns the release. */
  holdLobby(): () => void {
    if (this.lobbyUsers++ === 0) this.socket.send({ type: 'lobby_subscribe' });
    return () => {
      if (--this.lobbyUsers === 0) {
        this.socket.send({ type: 'lobby_unsubscribe' });
        this.set({ ...this.state, seeksLoaded: false });
      }
    };
  }

  /** The live games list, refreshed now and after reconnects while held. */
  holdLiveGames(): () => void {
    this.liveUsers++;
    this.refreshLiveGames();
    return () => {
      this.liveUsers--;
    };
  }

  refreshLiveGames(): void {
    this.socket.send({ type: 'live_games', limit: 20 });
  }

  /** A game's full state and its events, while at least one caller holds it. */
  holdGame(id: string): () => void {
    const n = this.watched.get(id) ?? 0;
    this.watched.set(id, n + 1);
    if (n === 0 && this.state.conn.status === 'online') void this.fetchGame(id);
    return () => {
      const left = (this.watched.get(id) ?? 1) - 1;
      if (left > 0) {
        this.watched.set(id, left);
        return;
      }
      this.watched.delete(id);
      this.socket.send({ type: 'unwatch', game: id });
    };
  }

  // ---- lobby actions ----

  /** A seek; `rated` asks for a rated game (or none) or a casual one, as docs/protocol.md says. */
  createSeek(time: TimeControl, color: ColorChoice, rated?: boolean) {
    return this.act({ type: 'seek_create', time, color, ...(rated === undefined ? {} : { rated }) });
  }

  /** The same for forms: rejects with the server's reason in words (RATED_UNAVAILABLE, say). */
  async createSeekOrThrow(time: TimeControl, color: ColorChoice, rated: boolean): Promise<void> {
    await this.askOrThrow({ type: 'seek_create', time, color, rated });
  }

  cancelSeek(seek: string) {
    return this.act({ type: 'seek_cancel', seek });
  }

  acceptSeek(seek: string) {
    return this.act({ type: 'seek_accept', seek });
  }

  /** A challenge by link, or to one player when `player` (an id) is given. */
  async createChallenge(time: TimeControl, color: ColorChoice, player?: string, rated?: boolean): Promise<Seek | null> {
    const reply = await this.act({
      type: 'challenge_create',
      time,
      color,
      ...(player ? { player } : {}),
      ...(rated === undefined ? {} : { rated }),
    });
    return reply?.type === 'challenge_created' ? reply.challenge : null;
  }

  /**
   * A direct challenge to the player or bot with this username: its id from its profile, then
   * challenge_create for it alone. Resolves to the challenge; rejects with the reason in words
   * (no such player, not connected, a rated game it cannot play, ...).
   */
  async challengeByName(username: string, time: TimeControl, color: ColorChoice, rated: boolean): Promise<Seek> {
    const name = username.trim();
    if (!name) throw new Error('Type the name of the player to challenge.');
    let profile: Profile;
    try {
      profile = await this.profile({ username: name });
    } catch (err) {
      const code = (err as { code?: string }).code;
      throw new Error(code === 'PLAYER_NOT_FOUND' ? `Nobody is called ${name} here.` : (err as Error).message);
    }
    if (profile.id === this.state.me?.id) throw new Error('You cannot challenge yourself.');
    const reply = await this.askOrThrow({ type: 'challenge_create', time, color, player: profile.id, rated });
    if (reply.type !== 'challenge_created') throw new Error('Unexpected answer from the server.');
    return reply.challenge;
  }

  // ---- bots (docs/bots.md) ----

  // These reject with the server's reason in words (USERNAME_TAKEN, BOT_NOT_FOUND, ...), for
  // the page to show next to the form.

  /** A new bot account owned by this player, and its first token (shown once). */
  async createBotOrThrow(username: string): Promise<{ name: string; token: string }> {
    const reply = await this.askOrThrow({ type: 'bot_create', username });
    if (reply.type !== 'bot_created') throw new Error('Unexpected answer from the server.');
    return { name: reply.bot.name, token: reply.token };
  }

  /** The bots this account owns, oldest first, with how many of their tokens work. */
  async listBotsOrThrow(): Promise<OwnedBot[]> {
    const reply = await this.askOrThrow({ type: 'bots_list' });
    if (reply.type !== 'bots') throw new Error('Unexpected answer from the server.');
    return reply.bots;
  }

  /** Another token for one of this player's bots. */
  async newBotTokenOrThrow(username: string): Promise<string> {
    const reply = await this.askOrThrow({ type: 'bot_token_create', username });
    if (reply.type !== 'bot_token') throw new Error('Unexpected answer from the server.');
    return reply.token;
  }

  /** Every token of one of this player's bots stops working (its connections close). */
  async revokeBotTokensOrThrow(username: string): Promise<void> {
    const reply = await this.askOrThrow({ type: 'bot_token_revoke', username });
    if (reply.type !== 'bot_token_revoked') throw new Error('Unexpected answer from the server.');
  }

  declineChallenge(challenge: string, reason?: DeclineReason) {
    return this.act({ type: 'challenge_decline', challenge, ...(reason ? { reason } : {}) });
  }

  cancelChallenge(challenge: string) {
    return this.act({ type: 'challenge_cancel', challenge });
  }

  acceptChallenge(challenge: string) {
    return this.act({ type: 'challenge_accept', challenge });
  }

  /** The challenge behind a link; rejects with the server's error (shown by the page). */
  async getChallenge(challenge: string): Promise<Seek> {
    const reply = await this.socket.request({ type: 'challenge_get', challenge });
    if (reply.type !== 'challenge') throw new Error('unexpected reply');
    return reply.challenge;
  }

  /** Starts a game against the computer; throws an Error with the server's reason in words
   * when it refuses (for example while the server has no engine pool). */
  async playComputerOrThrow(level: number, time: TimeControl, color: ColorChoice): Promise<void> {
    await this.askOrThrow({ type: 'computer_play', level, time, color });
  }

  // ---- free analysis (docs/protocol.md: analyse, analysis_stop) ----

  /**
   * Analyses a position (FEN) with `multipv` lines, in place of the analysis shown. The server
   * runs one analysis per connection, so a running one is stopped first and its end awaited.
   */
  analyse(fen: string, multipv = 1): void {
    const seq = ++this.analysisSeq;
    this.set({ ...this.state, analysis: analysisAsked(seq, fen, multipv) });
    this.analysisQueue = this.analysisQueue.then(() => this.startAnalysis(seq, fen, multipv));
  }

  /** Stops the analysis shown (its last lines stay shown); `forget` also drops them. */
  stopAnalysis(forget = false): void {
    this.analysisSeq++;
    const a = this.state.analysis;
    if (forget) this.set({ ...this.state, analysis: null });
    else if (a?.status === 'starting') this.set({ ...this.state, analysis: { ...a, status: 'stopped' } });
    this.analysisQueue = this.analysisQueue.then(() => this.endRunningAnalysis());
  }

  private async startAnalysis(seq: number, fen: string, multipv: number): Promise<void> {
    await this.endRunningAnalysis();
    if (seq !== this.analysisSeq) return;
    const current = () => {
      const a = this.state.analysis;
      return seq === this.analysisSeq && a?.seq === seq ? a : null;
    };
    try {
      const reply = await this.socket.request({ type: 'analyse', fen, multipv });
      if (reply.type !== 'analysis_started') return;
      // Superseded meanwhile: the step queued after this one stops it.
      this.runningAnalysis = reply.analysis;
      const a = current();
      if (a) this.set({ ...this.state, analysis: analysisStarted(a, reply.analysis) });
    } catch (err) {
      const code = (err as { code?: string }).code;
      if (code === 'CONNECTION_LOST' || code === 'OFFLINE') return; // the next welcome starts it again
      const a = current();
      if (a) this.set({ ...this.state, analysis: { ...a, status: 'error', error: readableError(err) } });
    }
  }

  /** Stops the server's running analysis, if any, and resolves once it has ended. */
  private async endRunningAnalysis(): Promise<void> {
    const id = this.runningAnalysis;
    if (id === null) return;
    const ended = new Promise<void>((resolve) => (this.analysisEnded = resolve));
    try {
      await this.socket.request({ type: 'analysis_stop', analysis: id });
    } catch {
      // ANALYSIS_NOT_FOUND: it ended by itself meanwhile; a lost connection ended it too.
      this.analysisFinished(id);
    }
    await ended;
  }

  private analysisFinished(id: number): void {
    if (this.runningAnalysis !== id) return;
    this.runningAnalysis = null;
    const resolve = this.analysisEnded;
    this.analysisEnded = null;
    resolve?.();
  }

  // ---- game actions ----

  /** Shows a move at once and sends it; the server's answer confirms or reverts it. */
  async move(gameId: string, move: LocalMove): Promise<boolean> {
    const game = this.state.games[gameId];
    if (!game || this.state.pending[gameId]) return false;
    const ply = game.ply + 1;
    this.set({
      ...this.state,
      pending: {
        ...this.state.pending,
        [gameId]: { ply, uci: move.uci, san: move.san, fen: move.fen, from: move.from, to: move.to },
      },
    });
    try {
      await this.socket.request({ type: 'move', game: gameId, move: move.uci, ply: game.ply });
      return true;
    } catch (err) {
      this.dropPending(gameId, ply);
      const code = (err as { code?: string }).code;
      if (code === 'STALE_PLY') void this.fetchGame(gameId);
      this.notify(readableError(err));
      return false;
    }
  }

  private dropPending(gameId: string, ply: number): void {
    const p = this.state.pending[gameId];
    if (!p || p.ply !== ply) return;
    const pending = { ...this.state.pending };
    delete pending[gameId];
    this.set({ ...this.state, pending });
  }

  command(gameId: string, type: GameCommand) {
    return this.act({ type, game: gameId } as ClientMessage);
  }

  claimAbandoned(gameId: string, result: 'win' | 'draw') {
    return this.act({ type: 'abandon_claim', game: gameId, result });
  }

  chat(gameId: string, text: string) {
    return this.act({ type: 'chat', game: gameId, text });
  }

  /** Reconnects now instead of waiting for the next attempt. */
  retryNow(): void {
    this.socket.retryNow();
  }

  // ---- accounts (servers with a database) ----

  /** Turns this guest into an account. Resolves to null, or the reason it failed in words. */
  async register(username: string, password: string): Promise<string | null> {
    try {
      await this.socket.request({ type: 'register', username, password });
      this.notify('Your account is ready.', 'info');
      return null;
    } catch (err) {
      return accountError(err);
    }
  }

  /** Logs in and continues as that account (a new connection with its session token). */
  async login(username: string, password: string): Promise<string | null> {
    try {
      const reply = await this.socket.request({ type: 'login', username, password });
      if (reply.type !== 'session') return 'Unexpected answer from the server.';
      this.switchIdentity(reply.token);
      return null;
    } catch (err) {
      return accountError(err);
    }
  }

  /** Ends the session; the browser continues as a new guest. */
  async logout(): Promise<string | null> {
    try {
      await this.socket.request({ type: 'logout' });
      this.switchIdentity(null);
      return null;
    } catch (err) {
      return accountError(err);
    }
  }

  /** A player's profile (ratings); rejects with the reason in words (an Error with the code). */
  async profile(player: { id?: string; username?: string }): Promise<Profile> {
    try {
      const reply = await this.socket.request({ type: 'player_get', player: player.id, username: player.username });
      if (reply.type !== 'player') throw new Error('unexpected reply');
      return reply.player;
    } catch (err) {
      throw Object.assign(new Error(accountError(err)), { code: (err as { code?: string }).code });
    }
  }

  /** A page of a player's finished games, newest first; rejects with the reason in words. */
  async gamesList(player: string, page: number, limit = 20): Promise<ServerMessageOf<'games'>> {
    try {
      const reply = await this.socket.request({ type: 'games_list', player, page, limit });
      if (reply.type !== 'games') throw new Error('unexpected reply');
      return reply;
    } catch (err) {
      throw new Error(accountError(err));
    }
  }

  /** The best rated players of a speed; rejects with the reason in words. */
  async leaderboard(category: RatingCategory, limit = 10): Promise<LeaderboardRow[]> {
    try {
      const reply = await this.socket.request({ type: 'leaderboard', category, limit });
      if (reply.type !== 'leaderboard') throw new Error('unexpected reply');
      return reply.players;
    } catch (err) {
      throw new Error(accountError(err));
    }
  }

  private switchIdentity(token: string | null): void {
    this.storage.set(KEYS.token, token);
    this.socket.stop();
    this.set({ ...initialState, notices: this.state.notices });
    this.socket.start();
  }

  // ---- identity ----

  /** Starts over as a new guest (optionally with a name) on the next connection. */
  newGuest(name: string | null): void {
    this.storage.set(KEYS.name, name);
    this.switchIdentity(null);
  }

  // ---- notices ----

  notify(text: string, kind: Notice['kind'] = 'error'): void {
    const notice = { id: this.noticeId++, kind, text };
    this.set({ ...this.state, notices: [...this.state.notices.slice(-4), notice] });
  }

  dismiss(id: number): void {
    this.set({ ...this.state, notices: this.state.notices.filter((n) => n.id !== id) });
  }

  // ---- internals ----

  /** Sends a request; rejects with an Error carrying the server's reason in words (for forms). */
  private async askOrThrow(msg: ClientMessage): Promise<ServerMessage> {
    try {
      return await this.socket.request(msg);
    } catch (err) {
      throw new Error(readableError(err));
    }
  }

  /** Sends a request; an error becomes a notice and the result null. */
  private async act(msg: ClientMessage): Promise<ServerMessage | null> {
    try {
      return await this.socket.request(msg);
    } catch (err) {
      this.notify(readableError(err));
      return null;
    }
  }

  private set(next: AppState): void {
    this.state = next;
    for (const l of this.listeners) l();
  }
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

/** Account and archive errors in words; a server without them answers UNKNOWN_TYPE. */
function accountError(err: unknown): string {
  const code = (err as { code?: string }).code;
  if (code === 'UNKNOWN_TYPE') return 'Accounts are not available on this server yet.';
  return readableError(err);
}
