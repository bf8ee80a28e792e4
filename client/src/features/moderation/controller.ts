/*
 * Moderation (docs/moderation.md): reports and blocks for every player, and for moderators the
 * actions on players, the reports to review and the log. Requests only (the pages keep what they
 * show); each method rejects with the server's reason in words (NOT_ADMIN, SELF_TARGET,
 * PLAYER_NOT_FOUND, ...) for the page to show next to the form.
 */
import type { Feature, FeatureContext, Handlers } from '../../lib/feature';
import type { ModAction, ModLogEntry, ModReport, NamedPlayer, ReportKind } from '../../net/protocol';

const UNEXPECTED = 'Unexpected answer from the server.';

export class ModerationController implements Feature {
  /** Replies only (the session keeps a grant of the admin role: app/store.ts). */
  readonly handlers: Handlers = {};
  private readonly ctx: FeatureContext;

  constructor(ctx: FeatureContext) {
    this.ctx = ctx;
  }

  /** Reports a player to the moderators; reporting again replaces one's open report. */
  async report(player: string, kind: ReportKind, text: string, game?: string): Promise<void> {
    const msg = { type: 'report' as const, player, kind, ...(text.trim() ? { text: text.trim() } : {}), ...(game ? { game } : {}) };
    const reply = await this.ctx.ask(msg);
    if (reply.type !== 'report_received') throw new Error(UNEXPECTED);
  }

  /** Blocks (or unblocks) a player: no challenges from them, no pairing, their chat hidden. */
  async setBlocked(player: string, blocked: boolean): Promise<boolean> {
    const reply = await this.ctx.ask({ type: blocked ? 'block' : 'unblock', player });
    if (reply.type !== 'block_set') throw new Error(UNEXPECTED);
    return reply.blocked;
  }

  /** The players this player blocks, oldest first. */
  async blocks(): Promise<NamedPlayer[]> {
    const reply = await this.ctx.ask({ type: 'blocks_list' });
    if (reply.type !== 'blocks') throw new Error(UNEXPECTED);
    return reply.players;
  }

  /** A moderator's action on a player, with the note kept in the log. */
  async act(player: string, action: ModAction, note: string): Promise<void> {
    const reply = await this.ctx.ask({ type: 'mod_action', player, action, text: note });
    if (reply.type !== 'mod_done') throw new Error(UNEXPECTED);
  }

  /** Closes a report with a note. */
  async resolve(report: number, note: string): Promise<void> {
    const reply = await this.ctx.ask({ type: 'report_resolve', report, text: note });
    if (reply.type !== 'mod_done') throw new Error(UNEXPECTED);
  }

  /** The open reports, newest first, then the latest closed ones. */
  async reports(): Promise<ModReport[]> {
    const reply = await this.ctx.ask({ type: 'mod_reports' });
    if (reply.type !== 'mod_reports') throw new Error(UNEXPECTED);
    return reply.reports;
  }

  /** The moderation log, newest first: all of it, or about one player. */
  async log(player?: string): Promise<ModLogEntry[]> {
    const reply = await this.ctx.ask({ type: 'mod_log', ...(player ? { player } : {}) });
    if (reply.type !== 'mod_log') throw new Error(UNEXPECTED);
    return reply.entries;
  }
}
