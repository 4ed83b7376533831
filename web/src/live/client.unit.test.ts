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
    await ioServer.close();
  });
});

// Issue 21: while the server's database is away, the handshake cannot look the session up and is
// refused with `data.retry` (api/realtime/realtime.ts); socket.io-client never retries a refused
// handshake on its own, so a screen open through a database blip stayed without live updates.
describe('a handshake refused while the server cannot read sessions', () => {
  it('is tried again until it is welcomed; a refusal of the session itself is not', async () => {
    server = http.createServer();
    const ioServer = new Server(server);
    let attempts = 0;
    ioServer.use((socket, next) => {
      attempts += 1;
      if (socket.handshake.auth.token === 'ended') return next(new Error('Authentication required'));
      if (attempts <= 2) return next(Object.assign(new Error('unavailable'), { data: { retry: true } }));
      next();
    });
    ioServer.on('connection', (socket) => socket.emit('sync:batch', { upTo: 3, refetch: false, messages: [] }));
    await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const open = (token: string, batches: number[]) =>
      startLiveClient(
        (auth) => io(url, { auth, transports: ['websocket'], reconnectionDelay: 50 }) as never,
        new QueryClient(),
        () => token,
        { batch: (batch) => batches.push(batch.upTo) },
      );

    const batches: number[] = [];
    live = open('a-token', batches);
    const deadline = Date.now() + 10_000;
    while (batches.length === 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
    expect(batches).toEqual([3]);
    expect(attempts).toBe(3);
    live.close();

    const ended: number[] = [];
    live = open('ended', ended);
    await new Promise((r) => setTimeout(r, 1500));
    expect(attempts).toBe(4);
    expect(live.socket.connected).toBe(false);
    await ioServer.close();
  });
});

// Issue 22 (decision 079): while the worker is behind, the server says so after the welcome and when
// it changes; the web shows "Catching up" from this hook.
describe('projections:lag', () => {
  it('tells the page when the server is catching up and when it has caught up', async () => {
    server = http.createServer();
    const ioServer = new Server(server);
    ioServer.on('connection', (socket) => {
      socket.emit('sync:batch', { upTo: 1, refetch: false, messages: [] });
      socket.emit('projections:lag', { behind: 1500, catchingUp: true });
      setTimeout(() => socket.emit('projections:lag', { behind: 0, catchingUp: false }), 50);
    });
    await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

    const told: boolean[] = [];
    live = startLiveClient(
      (auth) => io(url, { auth, transports: ['websocket'] }) as never,
      new QueryClient(),
      () => 'a-token',
      { catchingUp: (catchingUp) => told.push(catchingUp) },
    );
    const deadline = Date.now() + 10_000;
    while (told.length < 2 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
    expect(told).toEqual([true, false]);
    await ioServer.close();
  });
});
