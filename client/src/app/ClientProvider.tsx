/*
 * Gives the views the client's controllers: the app store and one context per feature.
 */
import type { ReactNode } from 'react';
import { AccountProvider } from '../features/account';
import { AnalysisProvider } from '../features/analysis';
import { ArenaProvider } from '../features/arena';
import { BotsProvider } from '../features/bots';
import { GamesProvider } from '../features/game';
import { LobbyProvider } from '../features/lobby';
import { ModerationProvider } from '../features/moderation';
import { ReviewProvider } from '../features/review';
import { SettingsProvider } from '../features/settings';
import { WatchProvider } from '../features/watch';
import { StoreContext } from '../hooks/useStore';
import type { Client } from './client';

export function ClientProvider({ client, children }: { client: Client; children: ReactNode }) {
  return (
    <StoreContext.Provider value={client.app}>
      <AccountProvider value={client.account}>
        <AnalysisProvider value={client.analysis}>
          <LobbyProvider value={client.lobby}>
            <WatchProvider value={client.watch}>
              <GamesProvider value={client.game}>
                <BotsProvider value={client.bots}>
                  <ModerationProvider value={client.moderation}>
                    <SettingsProvider value={client.settings}>
                      <ReviewProvider value={client.review}>
                        <ArenaProvider value={client.arena}>{children}</ArenaProvider>
                      </ReviewProvider>
                    </SettingsProvider>
                  </ModerationProvider>
                </BotsProvider>
              </GamesProvider>
            </WatchProvider>
          </LobbyProvider>
        </AnalysisProvider>
      </AccountProvider>
    </StoreContext.Provider>
  );
}
