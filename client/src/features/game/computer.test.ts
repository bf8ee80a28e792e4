/*
 * Games against the computer: the seat marked by its level, computer_thinking until the next
 * move, takeback or end, and the spectators' computer_analysis lines, fed through the games reducers
 * as the server sends them (shapes from docs/protocol.md and tests/integration/test_engine.py).
 */
import { describe, expect, it } from 'vitest';
import { AFTER_E4, AFTER_E4_E5, fullGame, moveEvent } from '../../net/fixtures';
import type { ServerMessage } from '../../net/protocol';
import { initialGamesState, reduceGames, type GamesState } from './state';

const computerGame = fullGame({
  white: { id: 'p1', name: 'Ann', connected: true },
  black: { id: 'computer-3', name: 'Computer level 3', computer: 3, connected: true },
  time: { minutes: 10, increment: 5 },
  clock: { white: 600000, black: 600000 },
});

const thinking = (ply: number): ServerMessage => ({ type: 'computer_thinking', game: 'g1', ply, thinking: true });

const analysis = (ply: number, depth: number, score: { cp: number } | { mate: number }, pv: string[]): ServerMessage => ({
  type: 'computer_analysis',
  game: 'g1',
  ply,
  depth,
  seldepth: depth + 5,
  multipv: 1,
  score,
  nodes: 812345,
  nps: 1630000,
  time_ms: 498,
  pv,
});

function feed(state: GamesState, ...msgs: ServerMessage[]): GamesState {
  return msgs.reduce((s, m) => reduceGames(s, m, 0), state);
}

const started = feed(initialGamesState, { type: 'game_started', game: computerGame, id: 10 });

describe('games against the computer', () => {
  it('marks the computer’s seat with its level', () => {
    const g = started.games.g1;
    expect(g.black).toMatchObject({ id: 'computer-3', name: 'Computer level 3', computer: 3 });
    expect(g.white.computer).toBeUndefined();
    expect(g.thinking).toBeNull();
    expect(g.analysis).toBeNull();
  });

  it('shows the computer thinking from computer_thinking until its move', () => {
    let s = feed(started, moveEvent(2, 1, 'e2e4', 'e4', AFTER_E4), thinking(1));
    expect(s.games.g1.thinking).toBe(1);
    s = feed(s, moveEvent(3, 2, 'e7e5', 'e5', AFTER_E4_E5, { white: 600000, black: 599500 }));
    expect(s.games.g1.thinking).toBeNull();
    expect(s.games.g1.san).toEqual(['e4', 'e5']);
  });

  it('ignores thinking about another ply (a late message)', () => {
    const s = feed(started, moveEvent(2, 1, 'e2e4', 'e4', AFTER_E4));
    expect(feed(s, thinking(0))).toBe(s);
    expect(feed(s, { type: 'computer_thinking', game: 'nope', ply: 1, thinking: true })).toBe(s);
  });

  it('keeps the latest line for spectators and drops lines of an old ply', () => {
    let s = feed(
      started,
      moveEvent(2, 1, 'e2e4', 'e4', AFTER_E4),
      thinking(1),
      analysis(1, 1, { cp: 30 }, ['e5']),
      analysis(1, 12, { cp: -18 }, ['e5', 'Nf3', 'Nc6', 'Bb5']),
    );
    expect(s.games.g1.analysis).toMatchObject({ ply: 1, depth: 12, score: { cp: -18 }, pv: ['e5', 'Nf3', 'Nc6', 'Bb5'] });
    expect(s.games.g1.analysis).not.toHaveProperty('type');
    s = feed(s, moveEvent(3, 2, 'e7e5', 'e5', AFTER_E4_E5));
    // The last line stays shown after the move; a late one for the old ply changes nothing.
    expect(s.games.g1.analysis?.depth).toBe(12);
    expect(feed(s, analysis(1, 13, { cp: -20 }, ['e5']))).toBe(s);
  });

  it('stops thinking at a takeback and at the end', () => {
    let s = feed(started, moveEvent(2, 1, 'e2e4', 'e4', AFTER_E4), thinking(1), analysis(1, 5, { mate: -3 }, ['e5']));
    const taken = feed(s, {
      type: 'takeback',
      game: 'g1',
      v: 4,
      undone: 1,
      ply: 0,
      fen: computerGame.fen,
      turn: 'white',
      clock: computerGame.clock,
    });
    expect(taken.games.g1).toMatchObject({ ply: 0, thinking: null, analysis: null });
    s = feed(s, {
      type: 'game_end',
      game: 'g1',
      v: 3,
      result: '1-0',
      reason: 'resignation',
      winner: 'white',
      clock: null,
    });
    expect(s.games.g1.thinking).toBeNull();
    // Nothing more after the end.
    expect(feed(s, thinking(1))).toBe(s);
  });

  it('keeps what it knew across a resync at the same ply, not at another', () => {
    const s = feed(started, moveEvent(2, 1, 'e2e4', 'e4', AFTER_E4), thinking(1), analysis(1, 8, { cp: 5 }, ['e5']));
    const atPly1 = { ...computerGame, v: 3, moves: ['e2e4'], san: ['e4'], ply: 1, fen: AFTER_E4, turn: 'black' as const };
    const same = feed(s, { type: 'game', game: atPly1 });
    expect(same.games.g1).toMatchObject({ thinking: 1, analysis: { depth: 8 } });
    const later = feed(s, {
      type: 'game',
      game: { ...atPly1, v: 4, moves: ['e2e4', 'e7e5'], san: ['e4', 'e5'], ply: 2, fen: AFTER_E4_E5, turn: 'white' },
    });
    expect(later.games.g1.thinking).toBeNull();
    expect(later.games.g1.analysis?.depth).toBe(8);
  });
});
