/*
 * The game page's controller: what the page shows (the pure roundView and its helpers), and the
 * controller on a fake socket: browsing the history, flipping, premoves played when the turn
 * comes (or dropped at the end), the sounds of moves and of the end.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { clientOnFakeSocket } from '../../app/testClient';
import { playUci, type LocalMove } from '../../lib/chess';
import type { SoundKind } from '../../lib/sound';
import { welcome } from '../../net/fakeSocket';
import { AFTER_E4, AFTER_E4_E5, AFTER_E4_E5_NF3, fullGame, moveEvent, START } from '../../net/fixtures';
import { gameFromFull } from './games';
import { historyKey, ROUND_START, RoundController, roundSounds, roundTitle, roundView, type RoundInputs } from './round';
import type { PendingMove } from './state';

const atPly2 = gameFromFull(
  fullGame({ moves: ['e2e4', 'e7e5'], san: ['e4', 'e5'], ply: 2, fen: AFTER_E4_E5, clock_running: 'white' }),
  0,
);

function inputs(over: Partial<RoundInputs> = {}): RoundInputs {
  return { game: atPly2, pending: undefined, error: undefined, meId: 'p1', online: true, local: ROUND_START, ...over };
}

const nf3: PendingMove = { ply: 3, uci: 'g1f3', san: 'Nf3', fen: AFTER_E4_E5_NF3, from: 'g1', to: 'f3' };

describe('roundView', () => {
  it('lets the player to move move, at the live position, online, without a move on its way', () => {
    const v = roundView('g1', inputs());
    expect(v).toMatchObject({ myColor: 'white', orientation: 'white', live: true, shownPly: 2, fen: AFTER_E4_E5 });
    expect(v.movable).toBe('white');
    expect(v.premoveColor).toBeNull();
    expect(v.lastMove).toEqual({ from: 'e7', to: 'e5' });
    expect(roundView('g1', inputs({ online: false })).movable).toBeNull();
    // Black waits: it may premove.
    const black = roundView('g1', inputs({ meId: 'p2' }));
    expect(black).toMatchObject({ myColor: 'black', orientation: 'black', movable: null, premoveColor: 'black' });
  });

  it('shows the own move at once, and premoves meanwhile', () => {
    const v = roundView('g1', inputs({ pending: nf3 }));
    expect(v).toMatchObject({ fen: AFTER_E4_E5_NF3, lastMove: { from: 'g1', to: 'f3' }, movable: null, premoveColor: 'white' });
  });

  it('shows a ply of the history, where nobody moves', () => {
    const v = roundView('g1', inputs({ local: { ...ROUND_START, viewPly: 1 } }));
    expect(v).toMatchObject({ live: false, shownPly: 1, fen: AFTER_E4, lastMove: { from: 'e2', to: 'e4' } });
    expect(v.movable).toBeNull();
    expect(v.premoveColor).toBeNull();
    // Past the last ply (after a takeback, say): the live position.
    expect(roundView('g1', inputs({ local: { ...ROUND_START, viewPly: 5 } }))).toMatchObject({ live: true, shownPly: 2 });
  });

  it('shows spectators White at the bottom, and flips', () => {
    expect(roundView('g1', inputs({ meId: 'p9' }))).toMatchObject({ myColor: null, orientation: 'white', movable: null, premoveColor: null });
    expect(roundView('g1', inputs({ meId: 'p9', local: { ...ROUND_START, flipped: true } })).orientation).toBe('black');
    expect(roundView('g1', inputs({ meId: 'p2', local: { ...ROUND_START, flipped: true } })).orientation).toBe('white');
  });

  it('says why a game is not there', () => {
    expect(roundView('zz', inputs({ game: undefined, error: 'No game with this id.' }))).toMatchObject({
      game: null,
      error: 'No game with this id.',
      movable: null,
    });
  });

  it('marks a king in check', () => {
    const fen = 'rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3';
    const game = { ...atPly2, fen, fens: [...atPly2.fens.slice(0, 2), fen] };
    expect(roundView('g1', inputs({ game })).checkSquare).toBe('e1');
  });
});

describe('round helpers', () => {
  it('maps the history keys', () => {
    expect(historyKey('ArrowLeft', 3, 5)).toBe(2);
    expect(historyKey('ArrowRight', 3, 5)).toBe(4);
    expect(historyKey('Home', 3, 5)).toBe(0);
    expect(historyKey('ArrowUp', 3, 5)).toBe(0);
    expect(historyKey('End', 3, 5)).toBe(5);
    expect(historyKey('ArrowDown', 3, 5)).toBe(5);
    expect(historyKey('a', 3, 5)).toBeNull();
  });

  it('sounds each new ply once, the own move when shown, and the end', () => {
    let r = roundSounds(null, atPly2, null);
    expect(r.sounds).toEqual([]); // nothing of the past
    r = roundSounds(r.memo, atPly2, nf3);
    expect(r.sounds).toEqual(['move']);
    const confirmed = { ...atPly2, ply: 3, san: [...atPly2.san, 'Nf3'] };
    r = roundSounds(r.memo, confirmed, null);
    expect(r.sounds).toEqual([]); // not again when confirmed
    const capture = { ...confirmed, ply: 4, san: [...confirmed.san, 'Nxe4'] };
    r = roundSounds(r.memo, capture, null);
    expect(r.sounds).toEqual(['capture']);
    r = roundSounds(r.memo, { ...capture, status: 'ended' }, null);
    expect(r.sounds).toEqual(['end']);
    expect(roundSounds(r.memo, { ...capture, status: 'ended' }, null).sounds).toEqual([]);
  });

  it('titles the tab with the turn', () => {
    expect(roundTitle(atPly2, 'white')).toBe('▶ Your turn · Ann vs Ben · chess');
    expect(roundTitle(atPly2, 'black')).toBe('Ann vs Ben · chess');
    expect(roundTitle({ ...atPly2, status: 'ended' }, 'white')).toBe('Ann vs Ben · chess');
  });
});

describe('RoundController', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  function setup(player = { id: 'p1', name: 'Ann' }) {
    const { f, client } = clientOnFakeSocket();
    welcome(f.current, [fullGame()], 'tok1', player);
    const sounds: SoundKind[] = [];
    const round = new RoundController('g1', client.game, client.app, (s) => sounds.push(s));
    const stop = round.start();
    return { f, round, sounds, stop, games: client.game };
  }

  it('holds its game while started', () => {
    const { f, stop } = setup();
    expect(f.current.last('watch')).toMatchObject({ game: 'g1' });
    stop();
    expect(f.current.last('unwatch')).toMatchObject({ game: 'g1' });
  });

  it('sends a move, shows it at once and sounds it once', () => {
    const { f, round, sounds } = setup();
    round.userMove(playUci(START, 'e2e4')!);
    expect(round.getState()).toMatchObject({ fen: AFTER_E4, movable: null, premoveColor: 'white' });
    const sent = f.current.last('move')!;
    expect(sent).toMatchObject({ game: 'g1', move: 'e2e4', ply: 0 });
    f.current.receive({ ...moveEvent(2, 1, 'e2e4', 'e4', AFTER_E4), id: sent.id });
    expect(round.getState()).toMatchObject({ pending: null, shownPly: 1 });
    expect(sounds).toEqual(['move']);
  });

  it('plays a premove when the turn comes, if still legal', () => {
    const { f, round, sounds } = setup({ id: 'p2', name: 'Ben' });
    expect(round.getState()).toMatchObject({ myColor: 'black', premoveColor: 'black' });
    round.setPremove({ from: 'e7', to: 'e5' });
    expect(round.getState().premoves).toEqual([{ from: 'e7', to: 'e5' }]);
    f.current.sent.length = 0;
    f.current.receive(moveEvent(2, 1, 'e2e4', 'e4', AFTER_E4));
    expect(f.current.last('move')).toMatchObject({ game: 'g1', move: 'e7e5', ply: 1 });
    expect(round.getState()).toMatchObject({ premoves: [], pending: { san: 'e5' }, fen: AFTER_E4_E5 });
    expect(sounds).toEqual(['move', 'move']);
  });

  it('plays queued premoves one per turn, the board showing them made', () => {
    const { f, round } = setup({ id: 'p2', name: 'Ben' });
    round.setPremove({ from: 'e7', to: 'e5' });
    round.setPremove({ from: 'g8', to: 'f6' });
    expect(round.getState().boardFen.split(' ')[0]).toBe('rnbqkb1r/pppp1ppp/5n2/4p3/8/8/PPPPPPPP/RNBQKBNR');
    f.current.sent.length = 0;
    f.current.receive(moveEvent(2, 1, 'e2e4', 'e4', AFTER_E4));
    const first = f.current.last('move')!;
    expect(first).toMatchObject({ move: 'e7e5', ply: 1, premove: true });
    expect(round.getState().premoves).toEqual([{ from: 'g8', to: 'f6' }]);
    expect(f.current.sent.filter((m) => m.type === 'move')).toHaveLength(1); // the next waits
    f.current.receive({ ...moveEvent(3, 2, 'e7e5', 'e5', AFTER_E4_E5), id: first.id });
    f.current.receive(moveEvent(4, 3, 'g1f3', 'Nf3', AFTER_E4_E5_NF3));
    expect(f.current.last('move')).toMatchObject({ move: 'g8f6', ply: 3 });
    expect(round.getState().premoves).toEqual([]);
    // A cancel drops the whole queue.
    round.setPremove({ from: 'b8', to: 'c6' });
    round.setPremove(null);
    expect(round.getState().premoves).toEqual([]);
  });

  it('drops a premove that is not legal any more, and one at the end of the game', () => {
    const { f, round } = setup({ id: 'p2', name: 'Ben' });
    round.setPremove({ from: 'e7', to: 'e5' });
    f.current.sent.length = 0;
    // The position after White's move (made up: a white pawn on e5) does not allow it any more.
    const blocked = 'rnbqkbnr/pppppppp/8/4P3/8/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1';
    f.current.receive(moveEvent(2, 1, 'e2e5', 'e5', blocked));
    expect(f.current.last('move')).toBeUndefined();
    expect(round.getState().premoves).toEqual([]);

    const other = setup({ id: 'p2', name: 'Ben' });
    other.round.setPremove({ from: 'd7', to: 'd5' });
    other.f.current.receive({ type: 'game_end', game: 'g1', v: 2, result: '1-0', reason: 'resignation', winner: 'white', clock: null });
    expect(other.round.getState().premoves).toEqual([]);
    expect(other.f.current.last('move')).toBeUndefined();
  });

  it('browses the history and comes back to the live position', () => {
    const { f, round } = setup();
    f.current.receive(moveEvent(2, 1, 'e2e4', 'e4', AFTER_E4));
    f.current.receive(moveEvent(3, 2, 'e7e5', 'e5', AFTER_E4_E5));
    expect(round.key('ArrowLeft')).toBe(true);
    expect(round.getState()).toMatchObject({ live: false, shownPly: 1, movable: null });
    round.jump(0);
    expect(round.getState().fen).toBe(START);
    expect(round.key('x')).toBe(false);
    expect(round.key('End')).toBe(true);
    expect(round.getState()).toMatchObject({ live: true, shownPly: 2, movable: 'white' });
    round.flip();
    expect(round.getState().orientation).toBe('black');
  });

  it('sends commands and chat for its game', async () => {
    const { f, round } = setup();
    round.command('resign');
    expect(f.current.last('resign')).toMatchObject({ game: 'g1' });
    round.claimAbandoned('draw');
    expect(f.current.last('abandon_claim')).toMatchObject({ game: 'g1', result: 'draw' });
    const said = round.chat('hi');
    f.current.receive({ type: 'ok', id: f.current.last('chat')!.id });
    await expect(said).resolves.toBe(true);
  });

  it('moves typed or played through the same path (a move already on its way waits)', () => {
    const { f, round } = setup();
    const e4: LocalMove = playUci(START, 'e2e4')!;
    round.userMove(e4);
    round.userMove(playUci(START, 'd2d4')!);
    expect(f.current.sent.filter((m) => m.type === 'move')).toHaveLength(1);
  });

  it('holds a board move for Confirm when move confirmation is on', () => {
    const { f, round } = setup();
    round.setConfirmMoves(true);
    f.current.sent.length = 0;
    round.boardMove(playUci(START, 'e2e4')!);
    // Shown, not sent; nothing else may be moved or premoved meanwhile.
    expect(round.getState()).toMatchObject({ fen: AFTER_E4, held: { san: 'e4' }, movable: null, premoveColor: null });
    expect(round.getState().lastMove).toEqual({ from: 'e2', to: 'e4' });
    expect(f.current.last('move')).toBeUndefined();
    round.cancelMove();
    expect(round.getState()).toMatchObject({ fen: START, held: null, movable: 'white' });
    round.boardMove(playUci(START, 'd2d4')!);
    round.confirmMove();
    expect(f.current.last('move')).toMatchObject({ game: 'g1', move: 'd2d4', ply: 0 });
    expect(round.getState()).toMatchObject({ held: null, pending: { san: 'd4' } });
  });

  it('sends board moves at once without move confirmation, and drops a held move the game left behind', () => {
    const { f, round } = setup();
    round.boardMove(playUci(START, 'e2e4')!);
    expect(f.current.last('move')).toMatchObject({ move: 'e2e4' });

    const other = setup();
    other.round.setConfirmMoves(true);
    other.round.boardMove(playUci(START, 'e2e4')!);
    other.f.current.receive({ type: 'game_end', game: 'g1', v: 2, result: '0-1', reason: 'resignation', winner: 'black', clock: null });
    expect(other.round.getState()).toMatchObject({ held: null, fen: START });
    other.round.confirmMove();
    expect(other.f.current.last('move')).toBeUndefined();
    // Turning confirmation off lets go of a held move.
    const third = setup();
    third.round.setConfirmMoves(true);
    third.round.boardMove(playUci(START, 'e2e4')!);
    third.round.setConfirmMoves(false);
    expect(third.round.getState()).toMatchObject({ held: null, movable: 'white' });
  });
});
