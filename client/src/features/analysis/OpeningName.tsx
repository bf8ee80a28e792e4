/*
 * The opening of a line, as the server names it (docs/openings.md): "B90 Sicilian: Najdorf"
 * under a board. Self-contained: give it the line's start and moves (UCI or SAN); it asks the
 * server (opening_lookup) when the line has settled. Nothing is shown while no position of the
 * line is named; a line the server cannot play says why.
 */
import type { Opening } from '../../net/protocol';
import { openingLabel } from './opening';
import { useOpening } from './useOpening';

export interface OpeningNameProps {
  /** The line's start (FEN); undefined: the standard start. */
  startFen?: string;
  /** The moves from the start, UCI or SAN. */
  moves: readonly string[];
  /** A game's line: named only from the standard start, as the server names games. */
  game?: boolean;
  /** How long the line must stay before the server is asked (ms). */
  debounceMs?: number;
}

export function OpeningName({ startFen, moves, game = false, debounceMs }: OpeningNameProps) {
  const view = useOpening(startFen, moves, { game, debounceMs });
  if (view.error) {
    return (
      <p className="opening-name" role="note" aria-live="polite">
        Opening: {view.error}
      </p>
    );
  }
  if (!view.opening) return null;
  return <OpeningLabel opening={view.opening} />;
}

/** An opening already known (an archived game's): its code and name. */
export function OpeningLabel({ opening }: { opening: Opening }) {
  return (
    <p className="opening-name" role="note" aria-live="polite" aria-label={`Opening: ${openingLabel(opening)}`}>
      <abbr title="Encyclopaedia of Chess Openings code">{opening.eco}</abbr> {opening.name}
    </p>
  );
}
