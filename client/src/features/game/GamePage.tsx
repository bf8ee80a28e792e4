/*
 * A game's page, for its players and for spectators (read-only): the board between the two
 * player bars with their clocks, the status or the game-over banner, the move list with history
 * navigation (arrow keys, Home, End), keyboard move entry, the game's actions, chat, the link
 * to share and the PGN download. A finished game links to the analysis board with all its moves,
 * at the move shown, and has its computer analysis (features/review): asked for here, then the
 * evaluation graph under the board, the judged moves marked in the move list, the better move as
 * an arrow, the accuracy panel and the keys n and p to the next and previous judged move.
 * Sounds follow the moves. An arena tournament's game names its arena (a link back to its page) and
 * gives each player a Berserk button until its first move. In games against the computer,
 * spectators also see its evaluation and line (players do not).
 *
 * The page is a view of its RoundController (round.ts), which holds the game in the games
 * controller (which fetches its full state, and again after every reconnect) and derives
 * everything shown from the copy, the move being sent and the page's own state (the ply
 * browsed to, the flip, a premove); premoves and sounds are the controller's too. What stays
 * here is the browser's: the history keys and the tab's title.
 *
 * The player's settings apply here: the board's appearance, move confirmation (a move made on
 * the board waits for Confirm or Cancel under the board) and zen mode (the page shows only the
 * board, the clocks, the moves and the game's actions).
 */
import { useEffect, useMemo, useState } from 'react';
import { Link } from '../../app/router';
import { Board, type BoardArrow } from '../../components/Board';
import { Icon } from '../../components/Icon';
import { ShareLink } from '../../components/ShareLink';
import { useSelect } from '../../hooks/useSelect';
import { useAppStore } from '../../hooks/useStore';
import { useSounds } from '../../hooks/useSounds';
import { describeOutcome } from '../../lib/outcome';
import { gameModeLabel } from '../../lib/mode';
import { formatTimeControl, speedOf } from '../../lib/timeControl';
import { HILL_SQUARES, variantLabel } from '../../lib/variant';
import { opposite, type Color } from '../../net/protocol';
import { AnalysisPanel, analysisUrl, OpeningName } from '../analysis';
import { EvalGraph, judgedMove, judgementsByPly, ReviewPanel, reviewKey, useGameReview, useReview } from '../review';
import { useBoardAppearance, useSettings, useSettingsController } from '../settings';
import { Chat } from './Chat';
import { EngineLine } from './EngineLine';
import { GameControls } from './GameControls';
import { canBerserk, type GameState } from './games';
import { useGames } from './hooks';
import { MoveInput } from './MoveInput';
import { MoveList } from './MoveList';
import { PlayerBar } from './PlayerBar';
import { RoundController, roundTitle, type RoundView } from './round';

/** The better move's arrow at a judged move (lichess's green brush). */
const BETTER_MOVE_COLOR = 'rgba(21, 120, 27, 0.8)';
const NO_MARKS: readonly never[] = [];
const NO_ARROWS: BoardArrow[] = [];

export function GamePage({ id }: { id: string }) {
  const games = useGames();
  const session = useAppStore();
  const sounds = useSounds();
  // One controller per page (the page is keyed by the game's id).
  const [round] = useState(() => new RoundController(id, games, session, (kind) => sounds.play(kind)));
  useEffect(() => round.start(), [round]);
  const view = useSelect(round, (v) => v);
  const game = view.game;
  if (!game) {
    return (
      <section className="panel narrow">
        <h1>Game {id}</h1>
        {view.error ? (
          <>
            <p role="alert">{view.error}</p>
            <p>
              <Link to="/">Back to the lobby</Link>
            </p>
          </>
        ) : (
          <p className="hint">Loading the game…</p>
        )}
      </section>
    );
  }
  return <GameView round={round} view={view} game={game} />;
}

function GameView({ round, view, game }: { round: RoundController; view: RoundView; game: GameState }) {
  const { myColor, online, orientation, fen, shownPly } = view;
  const appearance = useBoardAppearance();
  const { confirm_move: confirmMoves, zen } = useSettings();
  const settings = useSettingsController();
  useEffect(() => round.setConfirmMoves(confirmMoves), [round, confirmMoves]);
  const reviews = useReview();
  const review = useGameReview(game.id, game.status === 'ended');
  const analysis = review?.status === 'done' ? review.analysis : null;
  const marks = useMemo(() => (analysis ? judgementsByPly(analysis) : NO_MARKS), [analysis]);
  // At a judged move, the better move as an arrow.
  const arrows = useMemo<BoardArrow[]>(() => {
    const better = analysis ? judgedMove(analysis, shownPly)?.arrow : null;
    return better ? [{ from: better.from, to: better.to, color: BETTER_MOVE_COLOR, label: `${better.san} was best` }] : NO_ARROWS;
  }, [analysis, shownPly]);

  // Arrow keys browse the history, n and p go to the next and previous judged move of an
  // analysed game (unless typing somewhere).
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      const t = e.target as HTMLElement | null;
      if (e.altKey || e.ctrlKey || e.metaKey) return;
      if (t && (t.isContentEditable || ['INPUT', 'TEXTAREA', 'SELECT'].includes(t.tagName))) return;
      const target = analysis ? reviewKey(e.key, analysis, round.getState().shownPly) : null;
      if (target !== null) round.jump(target);
      else if (!round.key(e.key)) return;
      e.preventDefault();
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [round, analysis]);

  // The tab's title says whose turn it is: set when it changes, after the board is painted
  // (it is not free).
  const title = roundTitle(game, myColor);
  useEffect(() => {
    const t = setTimeout(() => {
      if (document.title !== title) document.title = title;
    }, 50);
    return () => clearTimeout(t);
  }, [title]);
  useEffect(
    () => () => {
      document.title = 'Chess';
    },
    [],
  );

  const topColor = opposite(orientation);

  return (
    <div className={zen ? 'game-layout zen' : 'game-layout'}>
      <div className="board-col">
        <PlayerBar game={game} color={topColor} isYou={myColor === topColor} position="top" />
        <Board
          fen={view.boardFen}
          playedFen={fen}
          orientation={orientation}
          movable={view.movable}
          premoveColor={view.premoveColor}
          premoves={view.premoves}
          onPremove={round.setPremove}
          lastMove={view.lastMove}
          checkSquare={view.checkSquare}
          onMove={round.boardMove}
          label={`Board, ${orientation} at the bottom${myColor ? `, you play ${myColor}` : ', spectating'}`}
          appearance={appearance}
          arrows={arrows}
          dests={view.dests}
          marked={game.variant === 'kingOfTheHill' ? HILL_SQUARES : undefined}
        />
        <PlayerBar game={game} color={orientation} isYou={myColor === orientation} position="bottom" />
        {analysis && !zen && <EvalGraph analysis={analysis} ply={shownPly} san={game.san} onView={round.jump} />}
        {view.held && (
          <div className="confirm-move" role="group" aria-label="Confirm your move">
            <button type="button" className="primary" onClick={round.confirmMove}>
              Confirm {view.held.san}
            </button>
            <button type="button" onClick={round.cancelMove}>
              Cancel
            </button>
          </div>
        )}
      </div>
      <aside className="game-side">
        {(!zen || game.status === 'ended') && <GameHeader game={game} myColor={myColor} online={online} />}
        {game.arena && <ArenaLine game={game} myColor={myColor} online={online} onBerserk={round.berserk} />}
        {!myColor && !zen && <EngineLine game={game} />}
        {!zen && (
          // One line kept for the name whether it is known yet or not: nothing below moves when
          // it arrives (its lookup waits for the moves to settle).
          <div className="opening-slot">
            <OpeningName startFen={game.initialFen} moves={game.moves} game />
          </div>
        )}
        <MoveList san={game.san} viewPly={shownPly} onView={round.jump} marks={marks} />
        {zen && (
          <button type="button" className="zen-exit" onClick={() => settings.change({ zen: false })}>
            Leave zen mode
          </button>
        )}
        {game.status === 'ended' && !zen && (
          <>
            <ReviewPanel
              review={review}
              ply={shownPly}
              fens={game.fens}
              names={{ white: game.white.name, black: game.black.name }}
              onView={round.jump}
              onRequest={() => void reviews.request(game.id)}
            />
            <AnalysisPanel fen={fen} />
            {/* The analysis board plays standard chess (chess.js): not a variant's game. */}
            {(game.variant === 'standard' || game.variant === 'fromPosition') && (
              <Link to={analysisUrl(game.initialFen, game.moves, shownPly, orientation)}>
                Open the game on the analysis board at this move
              </Link>
            )}
          </>
        )}
        {myColor && game.status === 'playing' && !zen && <MoveInput fen={fen} dests={view.dests} enabled={view.movable !== null} onMove={round.userMove} />}
        {!zen && (
          <div className="button-row">
            <button type="button" onClick={round.flip} aria-label="Flip the board">
              <Icon name="flip" /> Flip
            </button>
            <a className="button" href={`/api/games/${game.id}.pgn`} download={`${game.id}.pgn`}>
              Download PGN
            </a>
          </div>
        )}
        {!myColor && game.rematch && !zen && (
          <Link to={`/game/${game.rematch}`} className="button primary">
            Watch the rematch
          </Link>
        )}
        {myColor && !game.archived && (
          <GameControls
            game={game}
            me={myColor}
            online={online}
            command={round.command}
            claimAbandoned={round.claimAbandoned}
          />
        )}
        {!game.archived && !zen && (
          <Chat
            lines={game.chat}
            room={myColor ? 'players' : 'spectators'}
            enabled={online}
            botIds={[game.white, game.black].filter((s) => s.bot).map((s) => s.id)}
            onSend={round.chat}
          />
        )}
        {!zen && !game.archived && game.spectators > 0 && (
          <p className="spectators">
            {game.spectators} {game.spectators === 1 ? 'spectator' : 'spectators'}
          </p>
        )}
        {!zen && <ShareLink path={`/game/${game.id}`} label="Link to this game" />}
      </aside>
    </div>
  );
}

function GameHeader({ game, myColor, online }: { game: GameState; myColor: Color | null; online: boolean }) {
  const mode = gameModeLabel(game.rated);
  const variant = game.variant === 'standard' ? '' : ` · ${variantLabel(game.variant, game.position)}`;
  const tc = `${formatTimeControl(game.time)}${variant}${mode ? ` · ${mode}` : ''}`;
  if (game.outcome) {
    const o = describeOutcome(game.outcome.result, game.outcome.reason, game.outcome.winner);
    return (
      <div className="game-over" role="status" aria-live="polite">
        <div className="game-meta">
          {tc}
          {game.archived && ' · from the archive'}
        </div>
        <div className="game-over-score">{o.score}</div>
        <div className="game-over-title">{o.title}</div>
        {o.detail && <div className="game-over-detail">{o.detail}</div>}
      </div>
    );
  }
  if (game.archived) {
    return (
      <div className="game-status">
        <div className="game-meta">{tc} · from the archive</div>
        <div className="game-turn">No result</div>
      </div>
    );
  }
  const turn = game.turn === 'white' ? 'White' : 'Black';
  const status =
    myColor && !online
      ? 'Not connected: moves paused'
      : myColor
        ? game.turn === myColor
          ? 'Your turn'
          : `Waiting for ${game[game.turn].name}`
        : `${turn} to move`;
  return (
    <div className="game-status">
      <div className="game-meta">
        {tc} · {speedOf(game.time)} · {myColor ? `you play ${myColor}` : 'spectating'}
      </div>
      <div className="game-turn" role="status" aria-live="polite">
        {game.ply < 2 && game.clock ? `${status} · the clock starts after Black's first move` : status}
      </div>
    </div>
  );
}

/** An arena game's tournament (a link to its page) and, for a player before its first move, the
 * Berserk button (arena_berserk: half the clock, no increment). */
function ArenaLine({
  game,
  myColor,
  online,
  onBerserk,
}: {
  game: GameState;
  myColor: Color | null;
  online: boolean;
  onBerserk: () => void;
}) {
  const arena = game.arena!;
  return (
    <div className="arena-line">
      <Link to={`/tournament/${arena.id}`}>
        <Icon name="trophy" /> {arena.name}
      </Link>
      {myColor && canBerserk(game, myColor) && (
        <button
          type="button"
          className="berserk-button"
          disabled={!online}
          onClick={onBerserk}
          title="Half your clock, no increment; a win with 7 moves of yours scores one point more"
        >
          <Icon name="berserk" /> Berserk
        </button>
      )}
    </div>
  );
}
