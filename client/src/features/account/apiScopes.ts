/*
 * The scopes of personal API access tokens, as lichess spells and describes them, in the order
 * the server writes them (docs/protocol.md, "API access tokens").
 */

export interface ApiScope {
  scope: string;
  /** What the scope lets a token do, in lichess's words. */
  label: string;
}

export const API_SCOPES: readonly ApiScope[] = [
  { scope: 'preference:read', label: 'Read preferences' },
  { scope: 'preference:write', label: 'Write preferences' },
  { scope: 'email:read', label: 'Read email address' },
  { scope: 'challenge:read', label: 'Read incoming challenges' },
  { scope: 'challenge:write', label: 'Send, accept and reject challenges' },
  { scope: 'tournament:write', label: 'Create, join and withdraw from tournaments' },
  { scope: 'board:play', label: 'Play games with the board API' },
  { scope: 'bot:play', label: 'Play games with the bot API' },
];

/** A token's scopes as the server lists them ("challenge:read,board:play"; "" for none). */
export function splitScopes(scopes: string): string[] {
  return scopes.split(/[ ,]+/).filter((s) => s !== '');
}
