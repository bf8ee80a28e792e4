/*
 * Accounts and the archive (servers with a database): register, log in and out, start over as a
 * new guest; an account's own settings (change the password, list and revoke its sessions, its
 * personal API access tokens, delete it); profiles, a player's finished games, the leaderboard. The player's identity itself
 * is the app's (the session); logging in or out asks the app to continue as the new identity on
 * a new connection. Errors come back in words; a server without accounts answers UNKNOWN_TYPE,
 * which reads "not available on this server yet".
 */
import { readableError } from '../../lib/errors';
import type { Feature, FeatureContext, Handlers } from '../../lib/feature';
import type { ApiTokenInfo, LeaderboardRow, Profile, RatingCategory, ServerMessageOf, SessionInfo } from '../../net/protocol';

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

  /** Changes the account's password; the server logs out every other session. Resolves to null,
   * or the reason it failed in words. */
  async changePassword(current: string, next: string): Promise<string | null> {
    try {
      await this.ctx.request({ type: 'password_change', current, new: next });
      this.ctx.notify('Your password is changed; your other sessions are logged out.', 'info');
      return null;
    } catch (err) {
      return accountError(err);
    }
  }

  /** The account's working sessions, most recently used first; rejects with the reason in
   * words. */
  async sessions(): Promise<SessionInfo[]> {
    try {
      const reply = await this.ctx.request({ type: 'sessions_list' });
      if (reply.type !== 'sessions') throw new Error('unexpected reply');
      return reply.sessions;
    } catch (err) {
      throw new Error(accountError(err));
    }
  }

  /** Logs one session out (by its id); null, or the reason it failed in words. */
  async revokeSession(session: string): Promise<string | null> {
    try {
      await this.ctx.request({ type: 'session_revoke', session });
      return null;
    } catch (err) {
      return accountError(err);
    }
  }

  /** Logs out every session but this browser's; null, or the reason in words. */
  async revokeOtherSessions(): Promise<string | null> {
    try {
      await this.ctx.request({ type: 'sessions_revoke_all' });
      this.ctx.notify('Your other sessions are logged out.', 'info');
      return null;
    } catch (err) {
      return accountError(err);
    }
  }

  /** The account's personal API access tokens, newest first (never their text); rejects with the
   * reason in words. */
  async apiTokens(): Promise<ApiTokenInfo[]> {
    try {
      const reply = await this.ctx.request({ type: 'api_tokens_list' });
      if (reply.type !== 'api_tokens') throw new Error('unexpected reply');
      return reply.tokens;
    } catch (err) {
      throw new Error(accountError(err));
    }
  }

  /** A new API access token with these scopes: its text (to show this once) and its info;
   * rejects with the reason in words. */
  async createApiToken(description: string, scopes: readonly string[]): Promise<{ token: string; info: ApiTokenInfo }> {
    try {
      const reply = await this.ctx.request({ type: 'api_token_create', description, scopes: scopes.join(',') });
      if (reply.type !== 'api_token_created') throw new Error('unexpected reply');
      return { token: reply.token, info: reply.info };
    } catch (err) {
      throw new Error(accountError(err));
    }
  }

  /** Revokes one API access token by its id; null, or the reason it failed in words. */
  async revokeApiToken(id: string): Promise<string | null> {
    try {
      await this.ctx.request({ type: 'api_token_revoke', token_id: id });
      return null;
    } catch (err) {
      return accountError(err);
    }
  }

  /** Deletes the account (its games stay, anonymised); the browser continues as a new guest.
   * Resolves to null, or the reason it failed in words. */
  async deleteAccount(password: string): Promise<string | null> {
    try {
      await this.ctx.request({ type: 'account_delete', password });
    } catch (err) {
      return accountError(err);
    }
    this.identity.switchIdentity(null);
    this.ctx.notify('Your account is deleted.', 'info');
    return null;
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
  if (code === 'PASSWORD_MISMATCH') return 'Wrong password.';
  if (code === 'PASSWORD_INVALID') return 'A password has 8 to 128 characters.';
  if (code === 'BAD_FIELD' && (err as { field?: string }).field === 'description')
    return 'A description has 1 to 100 characters.';
  return readableError(err);
}
