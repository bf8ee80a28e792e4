/*
 * Accounts and the archive (servers with a database): register, log in and out, start over as a
 * new guest; profiles, a player's finished games, the leaderboard. The player's identity itself
 * is the app's (the session); logging in or out asks the app to continue as the new identity on
 * a new connection. Errors come back in words; a server without accounts answers UNKNOWN_TYPE,
 * which reads "not available on this server yet".
 */
import { readableError } from '../../lib/errors';
import type { Feature, FeatureContext, Handlers } from '../../lib/feature';
import type { LeaderboardRow, Profile, RatingCategory, ServerMessageOf } from '../../net/protocol';

/** What the app does when the identity changes. */
export interface Identity {
  /** Continues with a session token, or as a new guest (null), on a new connection. */
  switchIdentity(token: string | null): void;
  /** Starts over as a new guest, with this name or a random one. */
  newGuest(name: string | null): void;
}

export class AccountController implements Feature {
  /** Replies only: the session's own messages (registered, player) are the app's. */
  readonly handlers: Handlers = {};
  private readonly ctx: FeatureContext;
  private readonly identity: Identity;

  constructor(ctx: FeatureContext, identity: Identity) {
    this.ctx = ctx;
    this.identity = identity;
  }

  /** Turns this guest into an account. Resolves to null, or the reason it failed in words. */
  async register(username: string, password: string): Promise<string | null> {
    try {
      await this.ctx.request({ type: 'register', username, password });
      this.ctx.notify('Your account is ready.', 'info');
      return null;
    } catch (err) {
      return accountError(err);
    }
  }

  /** Logs in and continues as that account (a new connection with its session token). */
  async login(username: string, password: string): Promise<string | null> {
    try {
      const reply = await this.ctx.request({ type: 'login', username, password });
      if (reply.type !== 'session') return 'Unexpected answer from the server.';
      this.identity.switchIdentity(reply.token);
      return null;
    } catch (err) {
      return accountError(err);
    }
  }

  /** Ends the session; the browser continues as a new guest. */
  async logout(): Promise<string | null> {
    try {
      await this.ctx.request({ type: 'logout' });
      this.identity.switchIdentity(null);
      return null;
    } catch (err) {
      return accountError(err);
    }
  }

  /** Starts over as a new guest (optionally with a name) on the next connection. */
  newGuest(name: string | null): void {
    this.identity.newGuest(name);
  }

  /** A player's profile (ratings); rejects with the reason in words (an Error with the code). */
  async profile(player: { id?: string; username?: string }): Promise<Profile> {
    try {
      const reply = await this.ctx.request({ type: 'player_get', player: player.id, username: player.username });
      if (reply.type !== 'player') throw new Error('unexpected reply');
      return reply.player;
    } catch (err) {
      throw Object.assign(new Error(accountError(err)), { code: (err as { code?: string }).code });
    }
  }

  /** A page of a player's finished games, newest first; rejects with the reason in words. */
  async gamesList(player: string, page: number, limit = 20): Promise<ServerMessageOf<'games'>> {
    try {
      const reply = await this.ctx.request({ type: 'games_list', player, page, limit });
      if (reply.type !== 'games') throw new Error('unexpected reply');
      return reply;
    } catch (err) {
      throw new Error(accountError(err));
    }
  }

  /** The best rated players of a speed; rejects with the reason in words. */
  async leaderboard(category: RatingCategory, limit = 10): Promise<LeaderboardRow[]> {
    try {
      const reply = await this.ctx.request({ type: 'leaderboard', category, limit });
      if (reply.type !== 'leaderboard') throw new Error('unexpected reply');
      return reply.players;
    } catch (err) {
      throw new Error(accountError(err));
    }
  }
}

/** Account and archive errors in words; a server without them answers UNKNOWN_TYPE. */
function accountError(err: unknown): string {
  const code = (err as { code?: string }).code;
  if (code === 'UNKNOWN_TYPE') return 'Accounts are not available on this server yet.';
  return readableError(err);
}
