import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { QueryClient } from '@tanstack/react-query';
import { Server } from 'socket.io';
import { io } from 'socket.io-client';
import { afterEach, describe, expect, it } from 'vitest';
import { startLiveClient, type LiveClient } from './client.ts';

// The web app's own live client against a small socket.io server whose first welcome fails, as the
// real one's does when the database is away: it closes the socket from the server side, after which
// socket.io-client on its own would stay disconnected for good.
let server: http.Server | undefined;
let live: LiveClient | undefined;
afterEach(async () => {
  live?.close();
  await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
});

describe('a socket whose welcome failed', () => {
  it('comes back by itself with its session, and is welcomed', async () => {
    server = http.createServer();
    const ioServer = new Server(server);
    const handshakes: Array<Record<string, unknown>> = [];
    ioServer.on('connection', (socket) => {
      handshakes.push(socket.handshake.auth);
      // the first two welcomes fail (the real server logs and disconnects); the third succeeds
      if (handshakes.length <= 2) socket.disconnect(true);
      else socket.emit('sync:batch', { upTo: 7, refetch: false, messages: [] });
    });
    await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

    const batches: number[] = [];
    live = startLiveClient(
      (auth) => io(url, { auth, transports: ['websocket'], reconnectionDelay: 50 }) as never,
      new QueryClient(),
      () => 'a-token',
      { batch: (batch) => batches.push(batch.upTo) },
    );
    const deadline = Date.now() + 10_000;
    while (batches.length === 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));

    expect(batches).toEqual([7]);
    expect(handshakes).toHaveLength(3);
    expect(handshakes.every((auth) => auth.token === 'a-token')).toBe(true);
    expect(live.socket.connected).toBe(true);
    ioServer.close();
  });
});
