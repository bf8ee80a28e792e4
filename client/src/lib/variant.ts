/*
 * The variants a game may be played in, as the server names them (lichess's keys,
 * docs/protocol.md "Variants"), with their names in words and what a game's start needs in
 * the forms: a Chess960 array's number (0-959, empty: drawn by the server) or a FEN.
 */
import type { Variant } from '../net/protocol';

export const VARIANTS: readonly { key: Variant; name: string }[] = [
  { key: 'standard', name: 'Standard' },
  { key: 'chess960', name: 'Chess960' },
  { key: 'fromPosition', name: 'From Position' },
  { key: 'threeCheck', name: 'Three-check' },
  { key: 'kingOfTheHill', name: 'King of the Hill' },
];

/** The squares a king wins on in King of the Hill. */
export const HILL_SQUARES: readonly string[] = ['d4', 'e4', 'd5', 'e5'];

/** "Chess960", "Three-check"...; an unknown or absent variant is standard chess. */
export function variantName(variant: Variant | undefined | null): string {
  return VARIANTS.find((v) => v.key === variant)?.name ?? 'Standard';
}

/** The variant as a game or seek shows it: "Chess960 #518" with a known array, else its name. */
export function variantLabel(variant: Variant | undefined | null, position?: number | null): string {
  const name = variantName(variant);
  return variant === 'chess960' && typeof position === 'number' ? `${name} #${position}` : name;
}

/** The fields of a game's start for seek_create, challenge_create and computer_play. */
export interface StartFields {
  variant?: Variant;
  position?: number;
  fen?: string;
}

/**
 * Reads a form's start: the variant, a Chess960 number typed (empty: none, the server draws
 * one) and a FEN typed for fromPosition (the server checks it: BAD_POSITION, POSITION_OVER).
 * Standard chess sends nothing (the server's default).
 */
export function readStart(
  variant: Variant,
  position: string,
  fen: string,
): { ok: true; start: StartFields } | { ok: false; error: string } {
  if (variant === 'standard') return { ok: true, start: {} };
  if (variant === 'chess960') {
    const text = position.trim();
    if (!text) return { ok: true, start: { variant } };
    const n = Number(text);
    if (!/^\d+$/.test(text) || n > 959) return { ok: false, error: 'A Chess960 position is a number from 0 to 959.' };
    return { ok: true, start: { variant, position: n } };
  }
  if (variant === 'fromPosition') {
    const text = fen.trim().replace(/\s+/g, ' ');
    if (!text) return { ok: false, error: 'Type the FEN of the position to start from.' };
    return { ok: true, start: { variant, fen: text } };
  }
  return { ok: true, start: { variant } };
}

/** The checks each side has given, from a Three-check FEN ending "+W+B" (lichess's), or null. */
export function checksOfFen(fen: string): { white: number; black: number } | null {
  const m = fen.trim().match(/ \+(\d)\+(\d)$/);
  return m ? { white: Number(m[1]), black: Number(m[2]) } : null;
}
