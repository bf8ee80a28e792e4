import { describe, expect, it } from 'vitest';
import { AFTER_E4, AFTER_E4_E5, AFTER_E4_E5_NF3, fullGame, moveEvent, START } from '../../net/fixtures';
import { applyGameEvent, canBerserk, colorOf, gameFromFull, historyFens, pliesBy, remainingMs } from './games';

describe('gameFromFull', () => {
  it('replays the history into one position per ply', () => {
    const g = gameFromFull(
      fullGame({ moves: ['e2e4', 'e7e5', 'g1f3'], san: ['e4', 'e5', 'Nf3'], ply: 3, fen: AFTER_E4_E5_NF3, turn: 'black' }),
      1000,
    );
    expect(g.fens).toEqual([START, AFTER_E4, AFTER_E4_E5, AFTER_E4_E5_NF3]);
    expect(g.clockAt).toBe(1000);
    expect(g.outcome).toBeNull();
  });

  it('keeps an ended game’s result and stops its clock', () => {
    const g = gameFromFull(
      fullGame({ status: 'ended', result: '0-1', reason: 'resignation', winner: 'black', clock_running: 'white' }),
      0,
    );
    expect(g.outcome).toEqual({ result: '0-1', reason: 'resignation', winner: 'black' });
    expect(g.clockRunning).toBeNull();
  });
});

describe('applyGameEvent', () => {
  const base = gameFromFull(fullGame(), 0);

  it('appends moves and starts the clock with Black’s first move', () => {
    let g = applyGameEvent(base, moveEvent(2, 1, 'e2e4', 'e4', AFTER_E4), 10);
    expect(g).toMatchObject({ ply: 1, turn: 'black', fen: AFTER_E4, clockRunning: null, v: 2 });
    g = applyGameEvent(g, moveEvent(3, 2, 'e7e5', 'e5', AFTER_E4_E5, { white: 180000, black: 179000 }), 20);
    expect(g).toMatchObject({ ply: 2, san: ['e4', 'e5'], clockRunning: 'white', clockAt: 20 });
    expect(g.fens).toEqual([START, AFTER_E4, AFTER_E4_E5]);
  });

  it('ignores stale and repeated events', () => {
    const g = applyGameEvent(base, moveEvent(2, 1, 'e2e4', 'e4', AFTER_E4), 10);
    expect(applyGameEvent(g, moveEvent(2, 1, 'e2e4', 'e4', AFTER_E4), 11)).toBe(g);
    expect(applyGameEvent(g, { type: 'offer', game: 'g1', v: 1, kind: 'draw', by: 'white' }, 12)).toBe(g);
  });

  it('asks for a resync when a move does not follow the copy', () => {
    const g = applyGameEvent(base, moveEvent(5, 3, 'g1f3', 'Nf3', AFTER_E4_E5_NF3), 10);
    expect(g.stale).toBe(true);
    expect(g.ply).toBe(0);
  });

  it('takes moves back', () => {
    let g = gameFromFull(
      fullGame({ moves: ['e2e4', 'e7e5', 'g1f3'], san: ['e4', 'e5', 'Nf3'], ply: 3, fen: AFTER_E4_E5_NF3, turn: 'black', v: 4 }),
      0,
    );
    g = applyGameEvent(g, { type: 'offer', game: 'g1', v: 5, kind: 'takeback', by: 'white' }, 1);
    expect(g.offers.takeback).toBe('white');
    g = applyGameEvent(
      g,
      { type: 'takeback', game: 'g1', v: 6, undone: 1, ply: 2, fen: AFTER_E4_E5, turn: 'white', clock: { white: 170000, black: 175000 } },
      2,
    );
    expect(g).toMatchObject({ ply: 2, san: ['e4', 'e5'], turn: 'white', clockRunning: 'white', fen: AFTER_E4_E5 });
    expect(g.fens).toHaveLength(3);
    expect(g.offers.takeback).toBeNull();
  });

  it('takes given time into both clocks, counting from its arrival', () => {
    let g = gameFromFull(fullGame({ moves: ['e2e4', 'e7e5'], san: ['e4', 'e5'], ply: 2, fen: AFTER_E4_E5, v: 3 }), 0);
    g = { ...g, clockRunning: 'white' };
    g = applyGameEvent(g, { type: 'time_given', game: 'g1', v: 4, to: 'white', ms: 15000, clock: { white: 190000, black: 180000 } }, 5000);
    expect(g).toMatchObject({ v: 4, clock: { white: 190000, black: 180000 }, clockAt: 5000, clockRunning: 'white' });
    expect(remainingMs(g, 'white', 6000)).toBe(189000);
    expect(remainingMs(g, 'black', 6000)).toBe(180000);
  });

  it('a move declines the opponent’s draw offer but keeps the mover’s own', () => {
    let g = applyGameEvent(base, { type: 'offer', game: 'g1', v: 2, kind: 'draw', by: 'black' }, 0);
    g = applyGameEvent(g, moveEvent(3, 1, 'e2e4', 'e4', AFTER_E4), 0);
    expect(g.offers.draw).toBeNull();
    g = applyGameEvent(g, { type: 'offer', game: 'g1', v: 4, kind: 'draw', by: 'black' }, 0);
    g = applyGameEvent(g, moveEvent(5, 2, 'e7e5', 'e5', AFTER_E4_E5), 0);
    expect(g.offers.draw).toBe('black');
  });

  it('ends the game', () => {
    const g = applyGameEvent(
      { ...base, clockRunning: 'white' },
      { type: 'game_end', game: 'g1', v: 2, result: '1-0', reason: 'resignation', winner: 'white', clock: { white: 1, black: 2 } },
      5,
    );
    expect(g).toMatchObject({ status: 'ended', clockRunning: null, clock: { white: 1, black: 2 } });
    expect(g.outcome).toEqual({ result: '1-0', reason: 'resignation', winner: 'white' });
  });

  it('tracks presence and when a game left may be claimed', () => {
    let g = applyGameEvent(base, { type: 'presence', game: 'g1', v: 2, color: 'black', connected: false, claim_after_ms: 60000 }, 1000);
    expect(g.black).toMatchObject({ connected: false, claimAt: 61000 });
    g = applyGameEvent(g, { type: 'presence', game: 'g1', v: 3, color: 'black', connected: true }, 2000);
    expect(g.black).toMatchObject({ connected: true, claimAt: null });
  });

  it('offers no claim when the server gives no claim time (a game without a clock)', () => {
    const g = applyGameEvent(base, { type: 'presence', game: 'g1', v: 2, color: 'black', connected: false }, 1000);
    expect(g.black).toMatchObject({ connected: false, claimAt: null });
  });

  it('keeps the recent chat and the rematch link', () => {
    let g = base;
    for (let i = 0; i < 120; i++) {
      g = applyGameEvent(g, { type: 'chat', game: 'g1', v: 2 + i, room: 'players', from: { id: 'p1', name: 'Ann' }, text: `hi ${i}`, time: i }, 0);
    }
    expect(g.chat).toHaveLength(100);
    expect(g.chat[99].text).toBe('hi 119');
    g = applyGameEvent(g, { type: 'rematch', game: 'g1', v: 500, next: 'g2' }, 0);
    expect(g.rematch).toBe('g2');
  });
});

describe('clocks and seats', () => {
  const g = { ...gameFromFull(fullGame({ ply: 2, clock_running: 'white', clock: { white: 60000, black: 50000 } }), 1000) };
  it('counts down the running side only', () => {
    expect(remainingMs(g, 'white', 1000)).toBe(60000);
    expect(remainingMs(g, 'white', 3500)).toBe(57500);
    expect(remainingMs(g, 'black', 3500)).toBe(50000);
    expect(remainingMs(g, 'white', 1e9)).toBe(0);
    expect(remainingMs({ ...g, clock: null }, 'white', 0)).toBeNull();
  });
  it('knows who plays what', () => {
    expect(colorOf(g, 'p2')).toBe('black');
    expect(colorOf(g, 'p9')).toBeNull();
    expect(pliesBy({ ...g, ply: 3 }, 'white')).toBe(2);
    expect(pliesBy({ ...g, ply: 3 }, 'black')).toBe(1);
  });
});

describe('variants', () => {
  it('replays castling written king onto rook (Chess960), where chess.js cannot', () => {
    const moves = ['e2e4', 'e7e5', 'g1f3', 'b8c6', 'f1c4', 'g8f6', 'e1h1', 'f8c5'];
    const fens = historyFens(START, moves);
    expect(fens).toHaveLength(9);
    expect(fens[7].split(' ')[0]).toBe('r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5N2/PPPP1PPP/RNBQ1RK1');
    expect(fens[8].split(' ')[0]).toBe('r1bqk2r/pppp1ppp/2n2n2/2b1p3/2B1P3/5N2/PPPP1PPP/RNBQ1RK1');
    const game = gameFromFull(fullGame({ moves, san: moves, ply: 8, fen: fens[8], variant: 'chess960', position: 518 }), 0);
    expect(game).toMatchObject({ variant: 'chess960', position: 518, checks: null });
    expect(game.fens[7]).toBe(fens[7]);
  });

  it('follows Three-check’s checks and the dests from the move events, none once ended', () => {
    const start = `${START} +0+0`;
    const dests = { g1: ['f3', 'h3'] };
    let game = gameFromFull(fullGame({ initial_fen: start, fen: start, variant: 'threeCheck', checks: { white: 0, black: 0 }, dests }), 0);
    expect(game.checks).toEqual({ white: 0, black: 0 });
    expect(game.dests?.g1).toEqual(['f3', 'h3']);
    game = applyGameEvent(game, { ...moveEvent(2, 1, 'e2e4', 'e4', `${AFTER_E4} +0+0`), dests: { e7: ['e5'] } }, 0);
    expect(game.dests).toEqual({ e7: ['e5'] });
    game = applyGameEvent(game, { ...moveEvent(3, 2, 'e7e5', 'e5', `${AFTER_E4_E5} +1+0`), dests: undefined }, 0);
    expect(game.checks).toEqual({ white: 1, black: 0 });
    expect(game.dests).toBeNull();
  });
});

describe('arena games and berserk', () => {
  const arena = { id: 'Tz7kQ2pX', name: 'Hourly Blitz Arena' };

  it('reads the arena and the berserk sides from the full state', () => {
    const g = gameFromFull(fullGame({ arena, berserk: { white: false, black: true } }), 0);
    expect(g.arena).toEqual(arena);
    expect(g.berserk).toEqual({ white: false, black: true });
    const plain = gameFromFull(fullGame(), 0);
    expect(plain.arena).toBeNull();
    expect(canBerserk(plain, 'white')).toBe(false);
  });

  it('halves the berserk side’s clock as the event says, for both sides to see', () => {
    let g = gameFromFull(fullGame({ arena, berserk: { white: false, black: false }, v: 1 }), 0);
    expect(canBerserk(g, 'white')).toBe(true);
    g = applyGameEvent(g, { type: 'berserk', game: 'g1', v: 2, color: 'white', clock: { white: 90000, black: 180000 } }, 500);
    expect(g).toMatchObject({ v: 2, clock: { white: 90000, black: 180000 }, clockAt: 500, berserk: { white: true, black: false } });
    expect(canBerserk(g, 'white')).toBe(false);
    // Black may still, until its own first move.
    expect(canBerserk(g, 'black')).toBe(true);
    g = applyGameEvent(g, moveEvent(3, 1, 'e2e4', 'e4', AFTER_E4, { white: 90000, black: 180000 }), 600);
    expect(canBerserk(g, 'black')).toBe(true);
    g = applyGameEvent(g, moveEvent(4, 2, 'e7e5', 'e5', AFTER_E4_E5, { white: 90000, black: 180000 }), 700);
    expect(canBerserk(g, 'black')).toBe(false);
    // A repeated event changes nothing.
    expect(applyGameEvent(g, { type: 'berserk', game: 'g1', v: 2, color: 'black', clock: { white: 1, black: 1 } }, 800)).toBe(g);
  });

  it('offers no berserk once the game has ended', () => {
    const g = gameFromFull(fullGame({ arena, status: 'ended', result: '1-0', reason: 'resignation', winner: 'white' }), 0);
    expect(canBerserk(g, 'white')).toBe(false);
  });
});
