/*
 * The page frame: header (site name, navigation, connection status, mute switch), notices, and
 * the page for the current route; the player's settings that apply everywhere (the site's
 * theme, the board's size, the sounds' volume). Games that start for this player (a seek or challenge
 * accepted, a rematch) open their page wherever the player is.
 */
import { useEffect } from 'react';
import { ConnectionStatus, ReconnectBanner } from '../components/ConnectionStatus';
import { Icon } from '../components/Icon';
import { Notices } from '../components/Notices';
import { AccountPage, Leaderboard, ProfilePage } from '../features/account';
import { AnalysisBoardPage, BoardEditor } from '../features/analysis';
import { TournamentPage, TournamentsPage } from '../features/arena';
import { BotsPage } from '../features/bots';
import { GamePage, useGames } from '../features/game';
import { ChallengePage, LobbyPage } from '../features/lobby';
import { ModerationPage } from '../features/moderation';
import { SettingsPage, useApplySettings } from '../features/settings';
import { LiveGames, TvPage } from '../features/watch';
import { useAppState, useAppStore } from '../hooks/useStore';
import { useMuted, useSounds } from '../hooks/useSounds';
import { Link, matchRoute, navigate, usePath } from './router';

export function App() {
  const path = usePath();
  const route = matchRoute(path);
  const store = useAppStore();
  const games = useGames();
  const registered = useAppState((s) => s.me?.registered === true && !s.me.bot);
  const admin = useAppState((s) => s.me?.admin === true);
  useApplySettings(useSounds());

  useEffect(() => games.onGameStarted((id) => navigate(`/game/${id}`)), [games]);

  return (
    <div className="app">
      <header className="site-header">
        <Link to="/" className="brand" aria-label="chess: the lobby (home)">
          <span aria-hidden="true">♞</span> chess
        </Link>
        <nav aria-label="Main">
          <Link to="/" aria-current={route.page === 'lobby' ? 'page' : undefined}>
            Play
          </Link>
          <Link
            to="/tournaments"
            aria-current={route.page === 'tournaments' || route.page === 'tournament' ? 'page' : undefined}
          >
            Tournaments
          </Link>
          <Link to="/tv" aria-current={route.page === 'tv' ? 'page' : undefined}>
            TV
          </Link>
          <Link to="/analysis" aria-current={route.page === 'analysis' || route.page === 'editor' ? 'page' : undefined}>
            Analysis
          </Link>
          <Link to="/account" aria-current={route.page === 'account' ? 'page' : undefined}>
            Account
          </Link>
          <Link to="/settings" aria-current={route.page === 'settings' ? 'page' : undefined}>
            Settings
          </Link>
          {registered && (
            <Link to="/bots" aria-current={route.page === 'bots' ? 'page' : undefined}>
              My bots
            </Link>
          )}
          {admin && (
            <Link to="/mod" aria-current={route.page === 'mod' ? 'page' : undefined}>
              Moderation
            </Link>
          )}
        </nav>
        <div className="header-tools">
          <ConnectionStatus />
          <MuteSwitch />
        </div>
      </header>
      <ReconnectBanner onRetry={() => store.retryNow()} />
      <Notices />
      <main className="page">
        {route.page === 'lobby' && <LobbyPage leaders={<Leaderboard />} live={<LiveGames />} />}
        {route.page === 'game' && <GamePage key={route.id} id={route.id} />}
        {route.page === 'challenge' && <ChallengePage key={route.id} id={route.id} />}
        {route.page === 'account' && <AccountPage />}
        {route.page === 'settings' && <SettingsPage />}
        {route.page === 'bots' && <BotsPage />}
        {route.page === 'analysis' && <AnalysisBoardPage />}
        {route.page === 'editor' && <BoardEditor />}
        {route.page === 'tv' && <TvPage />}
        {route.page === 'mod' && <ModerationPage />}
        {route.page === 'player' && <ProfilePage key={route.id} id={route.id} />}
        {route.page === 'tournaments' && <TournamentsPage />}
        {route.page === 'tournament' && <TournamentPage key={route.id} id={route.id} />}
        {route.page === 'not_found' && (
          <section className="panel">
            <h1>Page not found</h1>
            <p>
              <Link to="/">Back to the lobby</Link>
            </p>
          </section>
        )}
      </main>
    </div>
  );
}

function MuteSwitch() {
  const sounds = useSounds();
  const muted = useMuted();
  return (
    <button
      type="button"
      className="icon-button"
      aria-pressed={muted}
      aria-label={muted ? 'Sound off (turn on)' : 'Sound on (mute)'}
      title={muted ? 'Sound off' : 'Sound on'}
      onClick={() => {
        sounds.unlock();
        sounds.setMuted(!muted);
      }}
    >
      <Icon name={muted ? 'soundOff' : 'soundOn'} size={20} />
    </button>
  );
}
