// Vite builds the client into dist/, which the C server serves (one URL for the whole site).
// In development (npm run dev) the WebSocket and the HTTP API are proxied to a server on
// CHESS_SERVER (default http://localhost:8080).
import { defineConfig } from 'vitest/config';
import react from '@vitejs/plugin-react';

declare const process: { env: Record<string, string | undefined> };

const server = process.env.CHESS_SERVER ?? 'http://localhost:8080';

export default defineConfig({
  plugins: [react()],
  build: {
    target: 'es2022',
    sourcemap: false,
    chunkSizeWarningLimit: 400,
  },
  server: {
    proxy: {
      '/ws': { target: server.replace(/^http/, 'ws'), ws: true },
      '/api': server,
      '/healthz': server,
    },
  },
  test: {
    environment: 'node',
    include: ['src/**/*.test.{ts,tsx}'],
    // The component tests render whole pages in jsdom: on a loaded two-core machine (the test
    // run starts browsers beside them) one can take several seconds. The timeout is for hangs.
    testTimeout: 30000,
  },
});
