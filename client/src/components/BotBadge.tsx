/*
 * Marks a player that is a program playing through the bot protocol (docs/bots.md), with the
 * title lichess gives bots.
 */
export function BotBadge({ bot }: { bot?: boolean }) {
  if (!bot) return null;
  return (
    <span className="badge bot-badge" title="A bot: a program playing on its own">
      BOT
    </span>
  );
}
