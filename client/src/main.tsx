/*
 * Entry point: creates the socket, the client (app store and feature controllers, app/client.ts)
 * and the sound player, connects, and renders the app. The token that identifies the guest is
 * kept in the browser.
 */
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app/App';
import { createClient } from './app/client';
import { ClientProvider } from './app/ClientProvider';
import { SoundsContext } from './hooks/useSounds';
import { Sounds } from './lib/sound';
import { browserStorage, KEYS } from './lib/storage';
import { defaultSocketUrl, GameSocket } from './net/socket';
import './styles.css';

const storage = browserStorage();
const socket = new GameSocket({
  url: defaultSocketUrl(),
  identity: () => ({
    token: storage.get(KEYS.token),
    name: storage.get(KEYS.name) ?? undefined,
  }),
  forgetToken: () => storage.set(KEYS.token, null),
});
const client = createClient(socket, storage);
const sounds = new Sounds(storage);

// The browser knows when the network goes and comes back: the socket follows at once rather
// than after its keep-alive or back-off.
window.addEventListener('offline', () => socket.networkLost());
window.addEventListener('online', () => socket.retryNow());
document.addEventListener('visibilitychange', () => {
  if (document.visibilityState === 'visible') socket.retryNow();
});
// Browsers start audio only after a gesture.
const unlock = () => sounds.unlock();
window.addEventListener('pointerdown', unlock, { capture: true });
window.addEventListener('keydown', unlock, { capture: true });

socket.start();

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <ClientProvider client={client}>
      <SoundsContext.Provider value={sounds}>
        <App />
      </SoundsContext.Provider>
    </ClientProvider>
  </StrictMode>,
);
