/* Opening names on the client: which line is asked about, the debounce, the answers remembered
 * by line, answers to lines left behind dropped, errors and lost connections. */
import { describe, expect, it } from 'vitest';
import type { Opening } from '../../net/protocol';
import { AFTER_E4 } from '../../net/fixtures';
import { GAME_OPENING_MAX_PLIES, OpeningLookup, START_FEN, openingLabel, openingLine, type OpeningLine, type OpeningView } from './opening';

const NAJDORF: Opening = { eco: 'B90', name: 'Sicilian: Najdorf', ply: 10 };
const SICILIAN: Opening = { eco: 'B20', name: 'Sicilian', ply: 2 };

describe('openingLine', () => {
  it('names games from the standard start only, by their first moves', () => {
    expect(openingLine(START_FEN, ['e4'], true)).toEqual({ moves: ['e4'] });
    expect(openingLine(undefined, ['e4'], true)).toEqual({ moves: ['e4'] });
    expect(openingLine(AFTER_E4, ['c5'], true)).toBeNull();
    const long = Array.from({ length: 60 }, (_, i) => (i % 2 ? 'g8f6' : 'g1f3'));
    expect(openingLine(undefined, long, true)!.moves).toHaveLength(GAME_OPENING_MAX_PLIES);
  });

  it('names a line of the analysis board from any start, all of it', () => {
    expect(openingLine(AFTER_E4, ['c5'])).toEqual({ fen: AFTER_E4, moves: ['c5'] });
    expect(openingLine(START_FEN, [])).toEqual({ moves: [] });
    expect(openingLabel(NAJDORF)).toBe('B90 Sicilian: Najdorf');
  });
});

/** A lookup whose requests and timers the test answers by hand. */
function rig() {
  const asked: { line: OpeningLine; resolve: (o: Opening | null) => void; reject: (e: unknown) => void }[] = [];
  const timers: (() => void)[] = [];
  const views: OpeningView[] = [];
  const lookup = new OpeningLookup(
    (line) => new Promise((resolve, reject) => asked.push({ line, resolve, reject })),
    (v) => views.push(v),
    { debounceMs: 250, cacheSize: 2, setTimer: (fn) => timers.push(fn), clearTimer: () => timers.splice(0) },
  );
  const fire = () => timers.splice(0).forEach((fn) => fn());
  const settle = () => new Promise((r) => setTimeout(r, 0));
  return { asked, views, lookup, fire, settle, last: () => views[views.length - 1] };
}

describe('OpeningLookup', () => {
  it('asks once the line settles, shows the answer, and remembers it', async () => {
    const r = rig();
    r.lookup.lookup({ moves: ['e4'] });
    r.lookup.lookup({ moves: ['e4', 'c5'] }); // before the debounce: the first is never asked
    expect(r.last()).toEqual({ opening: null, pending: true, error: null });
    r.fire();
    expect(r.asked.map((a) => a.line.moves)).toEqual([['e4', 'c5']]);
    r.asked[0].resolve(SICILIAN);
    await r.settle();
    expect(r.last()).toEqual({ opening: SICILIAN, pending: false, error: null });
    // Elsewhere and back: the answer is remembered, nothing asked again.
    r.lookup.lookup({ moves: ['d4'] });
    r.fire();
    r.asked[1].resolve(null);
    await r.settle();
    expect(r.last().opening).toBeNull();
    r.lookup.lookup({ moves: ['e4', 'c5'] });
    expect(r.last()).toEqual({ opening: SICILIAN, pending: false, error: null });
    expect(r.asked).toHaveLength(2);
  });

  it('drops the answer to a line the page has left, and forgets the oldest answers', async () => {
    const r = rig();
    r.lookup.lookup({ moves: ['e4', 'c5'] });
    r.fire();
    r.lookup.lookup({ moves: ['e4', 'c5', 'Nf3', 'd6', 'd4', 'cxd4', 'Nxd4', 'Nf6', 'Nc3', 'a6'] });
    r.fire();
    r.asked[1].resolve(NAJDORF);
    r.asked[0].resolve(SICILIAN); // late, for the line left behind
    await r.settle();
    expect(r.last().opening).toBe(NAJDORF);
    r.lookup.lookup({ moves: ['c4'] });
    r.fire();
    r.asked[2].resolve(null);
    await r.settle();
    // Three answers (the late one is still right for its line) with room for two: the Sicilian
    // is known, the Najdorf, remembered first, is asked again.
    r.lookup.lookup({ moves: ['e4', 'c5'] });
    expect(r.last().opening).toBe(SICILIAN);
    r.lookup.lookup({ moves: ['e4', 'c5', 'Nf3', 'd6', 'd4', 'cxd4', 'Nxd4', 'Nf6', 'Nc3', 'a6'] });
    r.fire();
    expect(r.asked).toHaveLength(4);
  });

  it("shows the server's reason for a bad line, and keeps the name over a lost connection", async () => {
    const r = rig();
    r.lookup.lookup({ moves: ['e4'] });
    r.fire();
    r.asked[0].resolve({ eco: 'B00', name: "King's Pawn", ply: 1 });
    await r.settle();
    r.lookup.lookup({ moves: ['e4', 'e4'] });
    r.fire();
    r.asked[1].reject({ code: 'ILLEGAL_MOVE', message: 'the move is not legal in this position' });
    await r.settle();
    expect(r.last()).toEqual({ opening: null, pending: false, error: 'the move is not legal in this position' });
    r.lookup.lookup({ moves: ['e4'] });
    expect(r.last().opening?.eco).toBe('B00');
    r.lookup.lookup({ moves: ['e4', 'e5'] });
    r.fire();
    r.asked[2].reject({ code: 'CONNECTION_LOST' });
    await r.settle();
    expect(r.last()).toEqual({ opening: { eco: 'B00', name: "King's Pawn", ply: 1 }, pending: false, error: null });
    r.lookup.lookup(null);
    expect(r.last()).toEqual({ opening: null, pending: false, error: null });
  });
});
