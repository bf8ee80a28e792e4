/*
 * The lobby's controller: its state (state.ts) kept by the pool, seek and challenge messages, and
 * what the lobby's pages do: quick pairing (pools), seeks, challenges (by link, to one player, by
 * name), answers to challenges, and games against the computer.
 *
 * The seek list is live while a page holds it (hold()), and asked for again after every
 * reconnect. A challenge this player made that the other one declines becomes a notice with
 * their reason. Methods named ...OrThrow reject with the server's reason in words (for forms to
 * show); the others turn errors into notices and resolve to null.
 */
import { handlersOf, type Feature, type FeatureContext, type Handlers } from '../../lib/feature';
import { Store } from '../../lib/store';
import type { ColorChoice, DeclineReason, Profile, Seek, ServerMessageOf, TimeControl } from '../../net/protocol';
import { declineText, initialLobbyState, lobbyReducers, type LobbyState } from './state';
import type { StartFields } from '../../lib/variant';

export interface LobbyDeps {
  /** A player's profile by username; rejects with an Error with the server's code (PLAYER_NOT_FOUND, ...). */
  findPlayer(username: string): Promise<Profile>;
}

export class LobbyController extends Store<LobbyState> implements Feature {
  readonly handlers: Handlers;
  private users = 0;
  private readonly ctx: FeatureContext;
  private readonly deps: LobbyDeps;

  constructor(ctx: FeatureContext, deps: LobbyDeps) {
    super(initialLobbyState);
    this.ctx = ctx;
    this.deps = deps;
    this.handlers = {
      ...handlersOf(lobbyReducers, (reduce) => this.update(reduce)),
      challenge_removed: (msg: ServerMessageOf<'challenge_removed'>, at: number) => {
        const mine = this.getState().challenges[msg.challenge];
        this.update((s) => lobbyReducers.challenge_removed!(s, msg, at));
        if (mine && msg.reason === 'declined') this.ctx.notify(declineText(mine, msg.decline_reason), 'info');
      },
    };
  }

  welcomed(): void {
    if (this.users > 0) this.ctx.send({ type: 'lobby_subscribe' });
    // A new connection waits in no pool: the server took the player out when it left.
    if (this.getState().pool) this.update((s) => ({ ...s, pool: null }));
  }

  reset(): void {
    this.set(initialLobbyState);
  }

  /** Asks for the player's games in progress (my_games: the daily games waiting for a move). */
  refreshMyGames(): void {
    this.ctx.send({ type: 'my_games' });
  }

  /** The lobby's seek list, live while at least one caller holds it. Returns the release. */
  hold(): () => void {
    if (this.users++ === 0) this.ctx.send({ type: 'lobby_subscribe' });
    return () => {
      if (--this.users === 0) {
        this.ctx.send({ type: 'lobby_unsubscribe' });
        this.update((s) => ({ ...s, seeksLoaded: false }));
      }
    };
  }

  // ---- quick pairing ----

  /** Waits in a preset's pool (rated: accounts only) until the server pairs a game. */
  joinPool(time: TimeControl, rated: boolean) {
    return this.ctx.act({ type: 'pool_join', time, rated });
  }

  leavePool() {
    return this.ctx.act({ type: 'pool_leave' });
  }

  // ---- seeks ----

  /** A seek; `rated` asks for a rated game (or none) or a casual one, as docs/protocol.md says. */
  createSeek(time: TimeControl, color: ColorChoice, rated?: boolean) {
    return this.ctx.act({ type: 'seek_create', time, color, ...(rated === undefined ? {} : { rated }) });
  }

  /** The same for forms: rejects with the server's reason in words (RATED_UNAVAILABLE, say). */
  async createSeekOrThrow(time: TimeControl, color: ColorChoice, rated: boolean, start: StartFields = {}): Promise<void> {
    await this.ctx.ask({ type: 'seek_create', time, color, rated, ...start });
  }

  cancelSeek(seek: string) {
    return this.ctx.act({ type: 'seek_cancel', seek });
  }

  acceptSeek(seek: string) {
    return this.ctx.act({ type: 'seek_accept', seek });
  }

  // ---- challenges ----

  /** A challenge by link, or to one player when `player` (an id) is given. */
  async createChallenge(time: TimeControl, color: ColorChoice, player?: string, rated?: boolean): Promise<Seek | null> {
    const reply = await this.ctx.act({
      type: 'challenge_create',
      time,
      color,
      ...(player ? { player } : {}),
      ...(rated === undefined ? {} : { rated }),
    });
    return reply?.type === 'challenge_created' ? reply.challenge : null;
  }

  /** A challenge by link (or to `player`, an id) for forms, with its start (variant, Chess960
   * number, FEN): rejects
   * with the server's reason in words (BAD_POSITION, POSITION_OVER, RATED_UNAVAILABLE...). */
  async createChallengeOrThrow(
    time: TimeControl,
    color: ColorChoice,
    rated: boolean | undefined,
    start: StartFields & { player?: string } = {},
  ): Promise<Seek> {
    const reply = await this.ctx.ask({ type: 'challenge_create', time, color, rated, ...start });
    if (reply.type !== 'challenge_created') throw new Error('Unexpected answer from the server.');
    return reply.challenge;
  }

  /**
   * A direct challenge to the player or bot with this username: its id from its profile, then
   * challenge_create for it alone. Resolves to the challenge; rejects with the reason in words
   * (no such player, not connected, a rated game it cannot play, ...).
   */
  async challengeByName(
    username: string,
    time: TimeControl,
    color: ColorChoice,
    rated: boolean,
    start: StartFields = {},
  ): Promise<Seek> {
    const name = username.trim();
    if (!name) throw new Error('Type the name of the player to challenge.');
    let profile: Profile;
    try {
      profile = await this.deps.findPlayer(name);
    } catch (err) {
      const code = (err as { code?: string }).code;
      throw new Error(code === 'PLAYER_NOT_FOUND' ? `Nobody is called ${name} here.` : (err as Error).message);
    }
    if (profile.id === this.ctx.session.getState().me?.id) throw new Error('You cannot challenge yourself.');
    const reply = await this.ctx.ask({ type: 'challenge_create', time, color, player: profile.id, rated, ...start });
    if (reply.type !== 'challenge_created') throw new Error('Unexpected answer from the server.');
    return reply.challenge;
  }

  declineChallenge(challenge: string, reason?: DeclineReason) {
    return this.ctx.act({ type: 'challenge_decline', challenge, ...(reason ? { reason } : {}) });
  }

  cancelChallenge(challenge: string) {
    return this.ctx.act({ type: 'challenge_cancel', challenge });
  }

  acceptChallenge(challenge: string) {
    return this.ctx.act({ type: 'challenge_accept', challenge });
  }

  /** The challenge behind a link; rejects with the server's error (shown by the page). */
  async getChallenge(challenge: string): Promise<Seek> {
    const reply = await this.ctx.request({ type: 'challenge_get', challenge });
    if (reply.type !== 'challenge') throw new Error('unexpected reply');
    return reply.challenge;
  }

  // ---- the computer ----

  /** Starts a game against the computer; throws an Error with the server's reason in words
   * when it refuses (for example while the server has no engine pool). */
  async playComputerOrThrow(level: number, time: TimeControl, color: ColorChoice, start: StartFields = {}): Promise<void> {
    await this.ctx.ask({ type: 'computer_play', level, time, color, ...start });
  }
}
