/*
 * The game page's controller, one per page (like lichess's round controller): it holds the
 * game in the games controller while the page is shown, follows that game, its pending move and
 * the session, and keeps what is the page's own: the ply the user browses to, whether the board
 * is flipped, and the queued premoves. Its state is a RoundView: everything the page shows, derived
 * by pure functions (roundView and the helpers below), so views only render it and call the
 * controller's methods.
 *
 * With move confirmation on (a player setting, as lichess's "confirm move"), a move made on the
 * board is held: shown on the board, sent only by confirmMove (cancelMove takes it back); a held
 * move is dropped when the game moves on without it (it ended, a takeback).
 *
 * What it does by itself when what it follows changes: plays the first queued premove as soon as
 * it is the player's turn (if still legal: else the whole queue goes; the game's end drops it;
 * the next waits for the next turn), and plays the sounds of the game
 * (each new ply once: the own move when shown, not again when the server confirms it; the end).
 */
import { checkedKing } from '../../lib/board';
import type { LocalMove } from '../../lib/chess';
import { applyPremoves, playPremove, PREMOVE_QUEUE_MAX, type Premove } from '../../lib/premove';
import type { Session } from '../../lib/feature';
import { soundForSan, type SoundKind } from '../../lib/sound';
import { Store, type Readable } from '../../lib/store';
import { opposite, type Color, type Dests } from '../../net/protocol';
import type { GameCommand, GamesController } from './controller';
import { colorOf, type GameState } from './games';
import type { PendingMove } from './state';

/** What is the page's own. */
export interface RoundLocal {
  /** The ply browsed to, or null for the live position. */
  viewPly: number | null;
  flipped: boolean;
  /** Premoves queued, to be played one per turn, first first. */
  premoves: readonly Premove[];
  /** A move made on the board waiting for Confirm (move confirmation), at the ply it was made. */
  held?: { move: LocalMove; ply: number } | null;
}

/** What the view derives from. */
export interface RoundInputs {
  game: GameState | undefined;
  pending: PendingMove | undefined;
  error: string | undefined;
  meId: string | undefined;
  online: boolean;
  local: RoundLocal;
}

/** Everything the page shows. */
export interface RoundView {
  id: string;
  /** The game, once fetched; until then `error` may say why it is not coming. */
  game: GameState | null;
  error: string | null;
  /** The own move on its way to the server, shown at once. */
  pending: PendingMove | null;
  /** The player's colour, or null for spectators. */
  myColor: Color | null;
  online: boolean;
  orientation: Color;
  /** Whether the board shows the live position (not a ply from the history). */
  live: boolean;
  /** The ply shown on the board. */
  shownPly: number;
  fen: string;
  lastMove: { from: string; to: string } | null;
  checkSquare: string | null;
  /** The colour the user may move now, or null. */
  movable: Color | null;
  /** The colour that may queue a premove now (its opponent is to move, or its own move is on its way). */
  premoveColor: Color | null;
  premoves: readonly Premove[];
  /** The position the board shows: the shown one, with the queued premoves made on it. */
  boardFen: string;
  /** The move waiting for Confirm, shown on the board (move confirmation), or null. */
  held: LocalMove | null;
  /** The server's legal destinations in the live position (null: none known), which the board
   * moves by (lib/dests.ts). */
  dests: Dests | null;
}

export const ROUND_START: RoundLocal = { viewPly: null, flipped: false, premoves: [], held: null };

function fromTo(uci: string | undefined) {
  return uci ? { from: uci.slice(0, 2), to: uci.slice(2, 4) } : null;
}

/** The page's view of a game from what it follows. */
export function roundView(id: string, inputs: RoundInputs): RoundView {
  const { game, pending, local, online } = inputs;
  const myColor = game ? colorOf(game, inputs.meId) : null;
  const orientation: Color = local.flipped ? opposite(myColor ?? 'white') : (myColor ?? 'white');
  const base = {
    id,
    error: inputs.error ?? null,
    pending: pending ?? null,
    myColor,
    online,
    orientation,
    premoves: local.premoves,
  };
  if (!game) {
    return {
      ...base,
      game: null,
      live: true,
      shownPly: 0,
      fen: '',
      boardFen: '',
      lastMove: null,
      checkSquare: null,
      movable: null,
      premoveColor: null,
      held: null,
      dests: null,
    };
  }
  const live = local.viewPly === null || local.viewPly >= game.ply;
  const shownPly = live ? game.ply : (local.viewPly ?? game.ply);
  // A held move counts only in the position it was made in.
  const held = live && !pending && game.status === 'playing' && local.held?.ply === game.ply ? local.held.move : null;
  const fen = live ? (pending?.fen ?? held?.fen ?? game.fen) : (game.fens[shownPly] ?? game.fen);
  const shownMove = live ? (pending ?? held) : null;
  const lastMove = shownMove ? { from: shownMove.from, to: shownMove.to } : fromTo(game.moves[shownPly - 1]);
  const movable =
    live && online && game.status === 'playing' && myColor && !pending && !held && game.turn === myColor
      ? myColor
      : null;
  // While the opponent thinks (or the own move is on its way), the next move may be queued;
  // not while the connection is down: a move then would be sent later, unseen; nor while a move
  // waits for Confirm.
  const premoveColor = live && online && game.status === 'playing' && myColor && !movable && !held ? myColor : null;
  return {
    ...base,
    game,
    live,
    shownPly,
    fen,
    boardFen: live ? applyPremoves(fen, local.premoves) : fen,
    lastMove,
    checkSquare: checkedKing(fen),
    movable,
    premoveColor,
    held,
    dests: live ? game.dests : null,
  };
}

/** The ply a history key goes to from `current` (arrows, Home, End), or null for other keys. */
export function historyKey(key: string, current: number, ply: number): number | null {
  const go: Record<string, number> = {
    ArrowLeft: current - 1,
    ArrowRight: current + 1,
    ArrowUp: 0,
    Home: 0,
    ArrowDown: ply,
    End: ply,
  };
  return key in go ? go[key] : null;
}

/** What the sounds were last played for. */
export interface SoundMemo {
  /** The ply last sounded (the pending move's, while it is on its way). */
  ply: number;
  playing: boolean;
}

/**
 * The sounds for a game's new state: a move sound when the shown ply grew by one (the pending
 * move's when there is one), the end when a game being played ended. The first sight of a game
 * plays nothing of its past.
 */
export function roundSounds(
  memo: SoundMemo | null,
  game: GameState,
  pending: PendingMove | null,
): { memo: SoundMemo; sounds: SoundKind[] } {
  const last = memo ?? { ply: game.ply, playing: game.status === 'playing' };
  const sounds: SoundKind[] = [];
  const target = pending ? pending.ply : game.ply;
  if (target === last.ply + 1) sounds.push(soundForSan(pending ? pending.san : (game.san[game.ply - 1] ?? '')));
  if (last.playing && game.status === 'ended') sounds.push('end');
  return { memo: { ply: target, playing: game.status === 'playing' }, sounds };
}

/** The tab's title: whose game, and whether it is the player's turn. */
export function roundTitle(game: GameState, myColor: Color | null): string {
  const mine = game.status === 'playing' && myColor === game.turn;
  return `${mine ? '▶ Your turn · ' : ''}${game.white.name} vs ${game.black.name} · chess`;
}

export class RoundController extends Store<RoundView> {
  readonly id: string;
  private local: RoundLocal = ROUND_START;
  private inputs: RoundInputs;
  private sounded: SoundMemo | null = null;
  private readonly games: GamesController;
  private readonly session: Readable<Session>;
  private readonly play: (sound: SoundKind) => void;
  private confirming = false;

  /** `play` plays a sound (the page's sound player). */
  constructor(id: string, games: GamesController, session: Readable<Session>, play: (sound: SoundKind) => void) {
    const inputs = readInputs(id, games, session, ROUND_START);
    super(roundView(id, inputs));
    this.id = id;
    this.inputs = inputs;
    this.games = games;
    this.session = session;
    this.play = play;
  }

  /** Holds the game and follows it; returns the stop (the page's effect). */
  start = (): (() => void) => {
    const release = this.games.hold(this.id);
    const offGames = this.games.subscribe(this.refresh);
    const offSession = this.session.subscribe(this.refresh);
    this.refresh();
    this.sound(); // the first sight of the game: nothing of its past, but a move already on its way
    return () => {
      offGames();
      offSession();
      release();
    };
  };

  // ---- what the page does ----

  /** Shows the position after `ply` (the live position at or past the last ply). */
  jump = (ply: number): void => {
    const game = this.getState().game;
    if (!game) return;
    this.setLocal({ viewPly: ply >= game.ply ? null : Math.max(0, ply) });
  };

  /** A history key (arrows, Home, End); true when it moved the view. */
  key = (key: string): boolean => {
    const game = this.getState().game;
    if (!game) return false;
    const target = historyKey(key, this.local.viewPly ?? game.ply, game.ply);
    if (target === null) return false;
    this.jump(target);
    return true;
  };

  flip = (): void => {
    this.setLocal({ flipped: !this.local.flipped });
  };

  /** A move made on the board or typed: shown at once and sent. */
  userMove = (move: LocalMove): void => {
    void this.games.move(this.id, move);
  };

  /** Move confirmation on or off (a player setting); off sends a held move's way clear. */
  setConfirmMoves = (on: boolean): void => {
    this.confirming = on;
    if (!on && this.local.held) this.setLocal({ held: null });
  };

  /** A move made on the board: sent, or with move confirmation held until confirmMove. */
  boardMove = (move: LocalMove): void => {
    const game = this.getState().game;
    if (!this.confirming || !game) return this.userMove(move);
    this.setLocal({ held: { move, ply: game.ply } });
  };

  /** Sends the move waiting for Confirm. */
  confirmMove = (): void => {
    const held = this.getState().held;
    this.setLocal({ held: null });
    if (held) this.userMove(held);
  };

  /** Takes the move waiting for Confirm back. */
  cancelMove = (): void => {
    this.setLocal({ held: null });
  };

  /** Queues a premove after those queued (at most PREMOVE_QUEUE_MAX), or cancels them all
   * (null). */
  setPremove = (premove: Premove | null): void => {
    const queued = this.local.premoves;
    if (!premove) {
      if (queued.length > 0) this.setLocal({ premoves: [] });
      return;
    }
    if (queued.length < PREMOVE_QUEUE_MAX) this.setLocal({ premoves: [...queued, premove] });
  };

  command = (type: GameCommand): void => {
    void this.games.command(this.id, type);
  };

  berserk = (): void => {
    void this.games.berserk(this.id);
  };

    claimAbandoned = (result: 'win' | 'draw'): void => {
    void this.games.claimAbandoned(this.id, result);
  };

  /** Sends a chat line; true when the server took it. */
  chat = async (text: string): Promise<boolean> => (await this.games.chat(this.id, text)) !== null;

  // ---- following ----

  private setLocal(patch: Partial<RoundLocal>): void {
    this.local = { ...this.local, ...patch };
    this.refresh();
  }

  /** Derives the view again when something it derives from changed. */
  private refresh = (): void => {
    const inputs = readInputs(this.id, this.games, this.session, this.local);
    const before = this.inputs;
    if (
      inputs.game === before.game &&
      inputs.pending === before.pending &&
      inputs.error === before.error &&
      inputs.meId === before.meId &&
      inputs.online === before.online &&
      inputs.local === before.local
    ) {
      return;
    }
    this.inputs = inputs;
    this.set(roundView(this.id, inputs));
    this.sound();
    this.settlePremove();
  };

  private sound(): void {
    const { game, pending } = this.getState();
    if (!game) return;
    const { memo, sounds } = roundSounds(this.sounded, game, pending);
    this.sounded = memo;
    for (const s of sounds) this.play(s);
  }

  /** Plays the first queued premove once the turn comes (if still legal, else the queue goes);
   * the end drops the queue. */
  private settlePremove(): void {
    const { game, premoves, movable, fen, dests } = this.getState();
    if (premoves.length === 0 || !game) return;
    if (game.status !== 'playing') {
      this.setLocal({ premoves: [] });
    } else if (movable) {
      const move = dests ? playPremove(fen, dests, premoves[0]) : null;
      if (!move) {
        this.setLocal({ premoves: [] });
        return;
      }
      // The move goes first: it is pending (nothing movable) by the time the shorter queue is
      // looked at, so the next premove waits for the next turn.
      this.local = { ...this.local, premoves: premoves.slice(1) };
      void this.games.move(this.id, move, true);
      this.refresh();
    }
  }
}

function readInputs(id: string, games: GamesController, session: Readable<Session>, local: RoundLocal): RoundInputs {
  const g = games.getState();
  const s = session.getState();
  return {
    game: g.games[id],
    pending: g.pending[id],
    error: g.errors[id],
    meId: s.me?.id,
    online: s.conn.status === 'online',
    local,
  };
}
