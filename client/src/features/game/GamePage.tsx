/*
 * A game's page, for its players and for spectators (read-only): the board between the two
 * player bars with their clocks, the status or the game-over banner, the move list with history
 * navigation (arrow keys, Home, End), keyboard move entry, the game's actions, chat, the link
 * to share and the PGN download. Sounds follow the moves. In games against the computer,
 * spectators also see its evaluation and line (players do not).
 *
 * The page holds the game in the store (which fetches its full state, and again after every
 * reconnect); everything shown derives from the store's copy plus the move being sent.
 */
import { useCallback, useEffect, useRef, useState } from 'react';
import { Link } from '../../app/router';
import { Icon } from '../../components/Icon';
import { ShareLink } from '../../components/ShareLink';
import { useAppState } from '../../hooks/useStore';
import { useSounds } from '../../hooks/useSounds';
import { checkedKingSquare, playPremove, type LocalMove, type Premove } from '../../lib/chess';
import { describeOutcome } from '../../lib/outcome';
import { soundForSan } from '../../lib/sound';
import { gameModeLabel } from '../../lib/mode';
import { formatTimeControl, speedOf } from '../../lib/timeControl';
import { opposite, type Color } from '../../net/protocol';
import { AnalysisPanel } from '../analysis';
import { Board } from '../../components/Board';
import { Chat } from './Chat';
import type { GameCommand } from './controller';
import { EngineLine } from './EngineLine';
import { GameControls } from './GameControls';
import { colorOf, type GameState } from './games';
import { useGames, useGamesState } from './hooks';
import { MoveInput } from './MoveInput';
import { MoveList } from './MoveList';
import { PlayerBar } from './PlayerBar';
import type { PendingMove } from './state';

export function GamePage({ id }: { id: string }) {
  const games = useGames();
  useEffect(() => games.hold(id), [games, id]);
  const game = useGamesState((s) => s.games[id]);
  const pending = useGamesState((s) => s.pending[id]);
  const error = useGamesState((s) => s.errors[id]);
  if (!game) {
    return (
      <section className="panel narrow">
        <h1>Game {id}</h1>
        {error ? (
          <>
            <p role="alert">{error}</p>
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
  return <GameView game={game} pending={pending} />;
}

function fromTo(uci: string | undefined) {
  return uci ? { from: uci.slice(0, 2), to: uci.slice(2, 4) } : null;
}

function GameView({ game, pending }: { game: GameState; pending: PendingMove | undefined }) {
  const games = useGames();
  const sounds = useSounds();
  const me = useAppState((s) => s.me);
  const online = useAppState((s) => s.conn.status === 'online');
  const myColor = colorOf(game, me?.id);
  const [flipped, setFlipped] = useState(false);
  const [viewPly, setViewPly] = useState<number | null>(null);
  const orientation: Color = flipped ? opposite(myColor ?? 'white') : (myColor ?? 'white');

  const live = viewPly === null || viewPly >= game.ply;
  const shownPly = live ? game.ply : viewPly;
  const fen = live ? (pending?.fen ?? game.fen) : (game.fens[shownPly] ?? game.fen);
  const lastMove = live && pending ? { from: pending.from, to: pending.to } : fromTo(game.moves[shownPly - 1]);
  const movable =
    live && online && game.status === 'playing' && myColor && !pending && game.turn === myColor
      ? myColor
      : null;
  // While the opponent thinks (or the own move is on its way), the next move may be queued.
  const premoveColor = live && game.status === 'playing' && myColor && !movable ? myColor : null;
  const [premove, setPremove] = useState<Premove | null>(null);
  useEffect(() => {
    if (!premove) return;
    if (game.status !== 'playing') setPremove(null);
    else if (movable) {
      setPremove(null);
      const move = playPremove(fen, premove);
      if (move) void games.move(game.id, move);
    }
  }, [premove, movable, fen, game.status, game.id, games]);

  const view = useCallback(
    (ply: number) => setViewPly(ply >= game.ply ? null : Math.max(0, ply)),
    [game.ply],
  );

  // Arrow keys browse the history (unless typing somewhere).
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      const t = e.target as HTMLElement | null;
      if (e.altKey || e.ctrlKey || e.metaKey) return;
      if (t && (t.isContentEditable || ['INPUT', 'TEXTAREA', 'SELECT'].includes(t.tagName))) return;
      const current = viewPly ?? game.ply;
      const go: Record<string, number> = {
        ArrowLeft: current - 1,
        ArrowRight: current + 1,
        ArrowUp: 0,
        Home: 0,
        ArrowDown: game.ply,
        End: game.ply,
      };
      if (!(e.key in go)) return;
      e.preventDefault();
      view(go[e.key]);
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [viewPly, game.ply, view]);

  // Sounds: each new ply once (the own move when shown, not again when confirmed), and the end.
  const soundedPly = useRef(game.ply);
  useEffect(() => {
    const target = pending ? pending.ply : game.ply;
    if (target === soundedPly.current + 1) {
      sounds.play(soundForSan(pending ? pending.san : (game.san[game.ply - 1] ?? '')));
    }
    soundedPly.current = target;
  }, [game.ply, game.san, pending, sounds]);
  const wasPlaying = useRef(game.status === 'playing');
  useEffect(() => {
    if (wasPlaying.current && game.status === 'ended') sounds.play('end');
    wasPlaying.current = game.status === 'playing';
  }, [game.status, sounds]);

  // The tab's title says whose turn it is: set when it changes, after the board is painted
  // (it is not free).
  const mine = game.status === 'playing' && myColor === game.turn;
  const title = `${mine ? '▶ Your turn · ' : ''}${game.white.name} vs ${game.black.name} · chess`;
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

  const onMove = (move: LocalMove) => {
    void games.move(game.id, move);
  };
  const command = (type: GameCommand) => void games.command(game.id, type);
  const topColor = opposite(orientation);
  const checkSquare = checkedKingSquare(fen);
  const lastSan = game.san[game.ply - 1];

  return (
    <div className="game-layout">
      <div className="board-col">
        <PlayerBar game={game} color={topColor} isYou={myColor === topColor} position="top" />
        <Board
          fen={fen}
          orientation={orientation}
          movable={movable}
          premoveColor={premoveColor}
          premove={premove}
          onPremove={setPremove}
          lastMove={lastMove}
          checkSquare={checkSquare}
          onMove={onMove}
          label={`Board, ${orientation} at the bottom${myColor ? `, you play ${myColor}` : ', spectating'}`}
        />
        <PlayerBar game={game} color={orientation} isYou={myColor === orientation} position="bottom" />
      </div>
      <aside className="game-side">
        <GameHeader game={game} myColor={myColor} />
        <p className="visually-hidden" aria-live="polite">
          {lastSan ? `${game.ply % 2 ? 'White' : 'Black'} played ${lastSan}` : ''}
        </p>
        {!myColor && <EngineLine game={game} />}
        <MoveList san={game.san} viewPly={shownPly} onView={view} />
        {game.status === 'ended' && (
          <>
            <AnalysisPanel fen={fen} />
            <Link to={`/analysis?fen=${encodeURIComponent(fen)}`}>Open this position on the analysis board</Link>
          </>
        )}
        {myColor && game.status === 'playing' && <MoveInput fen={fen} enabled={movable !== null} onMove={onMove} />}
        <div className="button-row">
          <button type="button" onClick={() => setFlipped((f) => !f)} aria-label="Flip the board">
            <Icon name="flip" /> Flip
          </button>
          <a className="button" href={`/api/games/${game.id}.pgn`} download={`${game.id}.pgn`}>
            Download PGN
          </a>
        </div>
        {!myColor && game.rematch && (
          <Link to={`/game/${game.rematch}`} className="button primary">
            Watch the rematch
          </Link>
        )}
        {myColor && !game.archived && (
          <GameControls
            game={game}
            me={myColor}
            online={online}
            command={command}
            claimAbandoned={(result) => void games.claimAbandoned(game.id, result)}
          />
        )}
        {!game.archived && (
          <Chat
            lines={game.chat}
            room={myColor ? 'players' : 'spectators'}
            enabled={online}
            botIds={[game.white, game.black].filter((s) => s.bot).map((s) => s.id)}
            onSend={async (text) => (await games.chat(game.id, text)) !== null}
          />
        )}
        <ShareLink path={`/game/${game.id}`} label="Link to this game" />
      </aside>
    </div>
  );
}

function GameHeader({ game, myColor }: { game: GameState; myColor: Color | null }) {
  const mode = gameModeLabel(game.rated);
  const tc = `${formatTimeControl(game.time)}${mode ? ` · ${mode}` : ''}`;
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
  const status = myColor
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
