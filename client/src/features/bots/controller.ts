/*
 * "My bots" (docs/bots.md): an account's bot accounts and their tokens. Requests only (the page
 * keeps what it shows); each method rejects with the server's reason in words (USERNAME_TAKEN,
 * BOT_NOT_FOUND, ACCOUNT_REQUIRED, ...) for the page to show next to the form. A token passes
 * through the caller's hands only: nothing here keeps it.
 */
import type { Feature, FeatureContext, Handlers } from '../../lib/feature';
import type { OwnedBot } from '../../net/protocol';

export class BotsController implements Feature {
  /** Replies only. */
  readonly handlers: Handlers = {};
  private readonly ctx: FeatureContext;

  constructor(ctx: FeatureContext) {
    this.ctx = ctx;
  }

  /** A new bot account owned by this player, and its first token (shown once). */
  async create(username: string): Promise<{ name: string; token: string }> {
    const reply = await this.ctx.ask({ type: 'bot_create', username });
    if (reply.type !== 'bot_created') throw new Error('Unexpected answer from the server.');
    return { name: reply.bot.name, token: reply.token };
  }

  /** The bots this account owns, oldest first, with how many of their tokens work. */
  async list(): Promise<OwnedBot[]> {
    const reply = await this.ctx.ask({ type: 'bots_list' });
    if (reply.type !== 'bots') throw new Error('Unexpected answer from the server.');
    return reply.bots;
  }

  /** Another token for one of this player's bots. */
  async newToken(username: string): Promise<string> {
    const reply = await this.ctx.ask({ type: 'bot_token_create', username });
    if (reply.type !== 'bot_token') throw new Error('Unexpected answer from the server.');
    return reply.token;
  }

  /** Every token of one of this player's bots stops working (its connections close). */
  async revokeTokens(username: string): Promise<void> {
    const reply = await this.ctx.ask({ type: 'bot_token_revoke', username });
    if (reply.type !== 'bot_token_revoked') throw new Error('Unexpected answer from the server.');
  }
}
