/*
 * One side of the board: the player's name, whether they are connected (with the time until an
 * absent player's game may be claimed) and their clock, which ticks locally from the server's
 * last reading (a daily game's in days and hours until the deadline). The computer's seat is
 * marked as such and says when it is thinking. A side that went berserk in an arena game has the
 * berserk mark beside its clock.
 */
import { memo } from 'react';
import { Link } from '../../app/router';
import { BotBadge } from '../../components/BotBadge';
import { Icon } from '../../components/Icon';
import { useNow } from '../../hooks/useNow';
import { dailyDays, formatClock, formatDaily } from '../../lib/timeControl';
import type { Color } from '../../net/protocol';
import { remainingMs, type GameState, type Seat } from './games';

export function PlayerBar({
  game,
  color,
  isYou,
  position,
}: {
  game: GameState;
  color: Color;
  isYou: boolean;
  position: 'top' | 'bottom';
}) {
  const seat = game[color];
  return (
    <div className={`player-bar player-${position}`} data-color={color}>
      <span className="player-id">
        {!game.archived && (
          <span
            className={`presence ${seat.connected ? 'on' : 'off'}`}
            role="img"
            aria-label={seat.connected ? 'connected' : 'disconnected'}
            title={seat.connected ? 'Connected' : 'Disconnected'}
          />
        )}
        <span className="player-name">
          {seat.id && seat.computer === undefined ? <Link to={`/player/${seat.id}`}>{seat.name}</Link> : seat.name}
          {isYou && <span className="you"> (you)</span>}
        </span>
        <BotBadge bot={seat.bot} />
        {seat.computer !== undefined && (
          <span className="badge computer-badge" title={`The computer, level ${seat.computer} of 8`}>
            computer
          </span>
        )}
        {seat.computer !== undefined && game.thinking !== null && game.turn === color && (
          <span className="thinking" role="status">
            thinking…
          </span>
        )}
        {seat.rating !== undefined && (
          <span className="rating" aria-label={ratingLabel(seat)}>
            {seat.rating}
            {seat.provisional ? '?' : ''}
            {seat.ratingDiff !== undefined && (
              <span className={seat.ratingDiff > 0 ? 'rating-up' : seat.ratingDiff < 0 ? 'rating-down' : 'rating-same'}>
                {` ${seat.ratingDiff > 0 ? '+' : seat.ratingDiff < 0 ? '−' : '±'}${Math.abs(seat.ratingDiff)}`}
              </span>
            )}
          </span>
        )}
        {game.checks && (
          <span className="checks-given" data-checks={game.checks[color]} title="Checks given (three win)">
            {`+${game.checks[color]}`}
            <span className="visually-hidden"> {game.checks[color] === 1 ? 'check' : 'checks'} given</span>
          </span>
        )}
        <span className="player-color visually-hidden">, {color}</span>
        {!seat.connected && game.status === 'playing' && <span className="away">away</span>}
      </span>
      {game.berserk[color] && (
        <span className="berserk-mark" role="img" aria-label={`${color} went berserk`} title="Berserk: half the clock, no increment">
          <Icon name="berserk" size={16} />
        </span>
      )}
      {game.clock && <Clock game={game} color={color} />}
    </div>
  );
}

/** "rating 1512, provisional, up 12" for screen readers. */
function ratingLabel(seat: Seat): string {
  const parts = [`rating ${seat.rating}`];
  if (seat.provisional) parts.push('provisional');
  if (seat.ratingDiff !== undefined)
    parts.push(seat.ratingDiff > 0 ? `up ${seat.ratingDiff}` : seat.ratingDiff < 0 ? `down ${-seat.ratingDiff}` : 'unchanged');
  return parts.join(', ');
}

const Clock = memo(function Clock({ game, color }: { game: GameState; color: Color }) {
  const running = game.clockRunning === color;
  const daily = dailyDays(game.time) !== null;
  const now = useNow(daily ? 1000 : 100, running);
  const ms = remainingMs(game, color, running ? now : game.clockAt) ?? 0;
  const low = ms < (daily ? 3600000 : 20000);
  return (
    <span
      className={`clock${running ? ' running' : ''}${low ? ' low' : ''}`}
      role="timer"
      aria-label={`${color} clock`}
      aria-live="off"
    >
      {daily ? formatDaily(ms) : formatClock(ms)}
    </span>
  );
});
