/*
 * The client on a fake socket with in-memory storage, started, for the Vitest suites: the test
 * plays the server through `f.current` (see net/fakeSocket.ts).
 */
import { memoryStorage, KEYS, type KeyValue } from '../lib/storage';
import { fakeSockets } from '../net/fakeSocket';
import { GameSocket } from '../net/socket';
import { createClient } from './client';

/** `storage`: what the browser kept from before (empty by default). */
export function clientOnFakeSocket(storage: KeyValue = memoryStorage()) {
  const f = fakeSockets();
  const socket = new GameSocket({
    url: 'ws://t/ws',
    identity: () => ({ token: storage.get(KEYS.token) }),
    createSocket: f.create,
    random: () => 0.5,
  });
  const client = createClient(socket, storage);
  socket.start();
  return { f, storage, socket, client };
}
