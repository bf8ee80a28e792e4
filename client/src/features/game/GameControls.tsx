/*
 * What a player can do besides moving: abort (before both sides moved), propose a takeback,
 * give the opponent 15 seconds,
 * offer or claim a draw, resign, claim a game the opponent left; answer the opponent's offers;
 * after the game, offer or accept a rematch. Irreversible actions ask for confirmation.
 */
import { Link } from '../../app/router';
import { ConfirmButton } from '../../components/ConfirmButton';
import { useNow } from '../../hooks/useNow';
import { claimableDraw } from '../../lib/chess';
import { dailyDays } from '../../lib/timeControl';
import { opposite, type Color } from '../../net/protocol';
import type { GameCommand } from './controller';
import { pliesBy, type GameState } from './games';

export interface ControlsProps {
  game: GameState;
  me: Color;
  online: boolean;
  command: (type: GameCommand) => void;
  claimAbandoned: (result: 'win' | 'draw') => void;
}

export function GameControls({ game, me, online, command, claimAbandoned }: ControlsProps) {
  const them = opposite(me);
  const playing = game.status === 'playing';
  const offered = game.offers;
  const claim = playing ? claimableDraw(game.fens) : null;
  return (
    <div className="controls">
      {playing && (
        <div className="button-row" role="toolbar" aria-label="Game actions">
          {game.ply < 2 && (
            <ConfirmButton confirmLabel="Yes, abort" onConfirm={() => command('abort')} disabled={!online}>
              Abort
            </ConfirmButton>
          )}
          {pliesBy(game, me) > 0 && (
            <button
              type="button"
              disabled={!online || offered.takeback === me}
              onClick={() => command('takeback_propose')}
            >
              {offered.takeback === me ? 'Takeback proposed…' : 'Propose takeback'}
            </button>
          )}
          {game.ply >= 2 && game.clock && dailyDays(game.time) === null && game[them].computer === undefined && (
            <button type="button" disabled={!online} onClick={() => command('give_time')}>
              Give 15 seconds
            </button>
          )}
          {game.ply >= 2 && (
            <ConfirmButton
              confirmLabel="Yes, offer a draw"
              onConfirm={() => command('draw_offer')}
              disabled={!online || offered.draw === me}
            >
              {offered.draw === me ? 'Draw offered…' : 'Offer draw'}
            </ConfirmButton>
          )}
          {claim && (
            <button type="button" disabled={!online} onClick={() => command('draw_claim')}>
              Claim draw ({claim === 'threefold_repetition' ? 'threefold repetition' : 'fifty-move rule'})
            </button>
          )}
          {game.ply >= 2 && (
            <ConfirmButton
              className="danger"
              confirmLabel="Yes, resign"
              onConfirm={() => command('resign')}
              disabled={!online}
            >
              Resign
            </ConfirmButton>
          )}
        </div>
      )}
      {/* Below the actions, so that an offer arriving never moves the buttons under the cursor. */}
      {playing && <IncomingOffers game={game} them={them} command={command} />}
      {playing && <AbandonClaim game={game} them={them} claim={claimAbandoned} />}
      {!playing && <AfterGame game={game} me={me} them={them} online={online} command={command} />}
    </div>
  );
}

function IncomingOffers({
  game,
  them,
  command,
}: {
  game: GameState;
  them: Color;
  command: (type: GameCommand) => void;
}) {
  const draw = game.offers.draw === them;
  const takeback = game.offers.takeback === them;
  if (!draw && !takeback) return null;
  return (
    <div className="offers" role="alert">
      {draw && (
        <div className="offer">
          <span>Your opponent offers a draw.</span>
          <button type="button" className="primary" onClick={() => command('draw_accept')}>
            Accept draw
          </button>
          <button type="button" onClick={() => command('draw_decline')}>
            Decline draw
          </button>
        </div>
      )}
      {takeback && (
        <div className="offer">
          <span>Your opponent asks to take back their last move.</span>
          <button type="button" className="primary" onClick={() => command('takeback_accept')}>
            Accept takeback
          </button>
          <button type="button" onClick={() => command('takeback_decline')}>
            Decline takeback
          </button>
        </div>
      )}
    </div>
  );
}

function AbandonClaim({
  game,
  them,
  claim,
}: {
  game: GameState;
  them: Color;
  claim: (result: 'win' | 'draw') => void;
}) {
  const seat = game[them];
  const away = !seat.connected && seat.claimAt !== null;
  const now = useNow(500, away);
  if (!away) return null;
  const left = Math.ceil(((seat.claimAt ?? 0) - now) / 1000);
  return (
    <div className="offers" role="status">
      {left > 0 ? (
        <span>
          Your opponent left. You can claim the game in {left} s if they do not come back.
        </span>
      ) : (
        <div className="offer">
          <span>Your opponent left the game.</span>
          <button type="button" className="primary" onClick={() => claim('win')}>
            Claim victory
          </button>
          <button type="button" onClick={() => claim('draw')}>
            Call it a draw
          </button>
        </div>
      )}
    </div>
  );
}

function AfterGame({
  game,
  me,
  them,
  online,
  command,
}: {
  game: GameState;
  me: Color;
  them: Color;
  online: boolean;
  command: (type: GameCommand) => void;
}) {
  if (game.rematch) {
    return (
      <div className="button-row">
        <Link to={`/game/${game.rematch}`} className="button primary">
          Go to the rematch
        </Link>
        <Link to="/" className="button">
          New opponent
        </Link>
      </div>
    );
  }
  const theyOffer = game.offers.rematch === them;
  const iOffer = game.offers.rematch === me;
  return (
    <div className="button-row" role="toolbar" aria-label="After the game">
      {theyOffer ? (
        <>
          <span>Your opponent wants a rematch.</span>
          <button type="button" className="primary" disabled={!online} onClick={() => command('rematch_accept')}>
            Accept rematch
          </button>
          <button type="button" disabled={!online} onClick={() => command('rematch_decline')}>
            Decline rematch
          </button>
        </>
      ) : (
        <button type="button" className="primary" disabled={!online || iOffer} onClick={() => command('rematch_offer')}>
          {iOffer ? 'Rematch offered…' : 'Rematch'}
        </button>
      )}
      <Link to="/" className="button">
        New opponent
      </Link>
    </div>
  );
}
