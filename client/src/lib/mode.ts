/*
 * Rated or casual (docs/protocol.md, seek_create): what a seek or challenge says about the game
 * it would start, and what a player's choice asks the server for. A seek with "rated": true
 * starts a rated game or none; one with "casual": true a casual game; one with neither is rated
 * when it can be (both players accounts, with a clock, not a bot against a person).
 */
import type { Seek } from '../net/protocol';

export type Mode = 'rated' | 'casual';

/** The words for the seek list and challenges: "rated", "casual" or "rated if possible". */
export function seekModeLabel(seek: Pick<Seek, 'rated' | 'casual' | 'to'>): string {
  if (seek.casual) return 'casual';
  if (seek.rated === true) return 'rated';
  // A direct challenge says exactly whether its game would be rated.
  if (seek.to && seek.rated === false) return 'casual';
  return 'rated if possible';
}

/** The game page's words for a game's mode; null when the server does not say. */
export function gameModeLabel(rated: boolean | null | undefined): Mode | null {
  if (rated === undefined || rated === null) return null;
  return rated ? 'rated' : 'casual';
}

/**
 * The "rated" field a request carries for a player's choice. Only accounts may ask for a rated
 * game; a guest's games are casual whatever they choose, so a guest's seek says so.
 */
export function ratedField(choice: Mode, registered: boolean | undefined): boolean {
  return registered === true && choice === 'rated';
}
