import { QueryClient } from '@tanstack/react-query';
import { io as connect, type Socket } from 'socket.io-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { jpegDataUrl } from '../../tests/support/images.ts';
import { client, startTestServer, type TestServer } from '../../tests/support/server.ts';
import { waitFor } from '../../tests/support/wait.ts';
import { startLiveClient, type LiveClient } from '../../web/src/live/client.ts';

let t: TestServer;
const sockets: Socket[] = [];
const screens: LiveClient[] = [];
beforeAll(async () => {
  t = await startTestServer();
});
afterAll(async () => {
  for (const s of sockets) s.close();
  for (const screen of screens) screen.close();
  await t.close();
});

function open(auth: Record<string, unknown>): Promise<Socket> {
  const socket = connect(t.url, { auth, transports: ['websocket'], reconnection: false });
  sockets.push(socket);
  return new Promise((resolve, reject) => {
    socket.once('connect', () => resolve(socket));
    socket.once('connect_error', reject);
  });
}

const next = <T>(socket: Socket, event: string) =>
  new Promise<T>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no ${event}`)), 10_000);
    socket.once(event, (payload: T) => {
      clearTimeout(timer);
      resolve(payload);
    });
  });

describe('live updates', () => {
  it('refuses a socket without a valid session', async () => {
    await expect(open({})).rejects.toThrow('Authentication required');
    await expect(open({ token: 'forged' })).rejects.toThrow('Authentication required');
  });

  it('tells admins the queue changed on submission, and everyone the item arrived on approval', async () => {
    const guestToken = await t.login('guest');
    const adminToken = await t.login('admin');
    const guestSocket = await open({ token: guestToken });
    const adminSocket = await open({ token: adminToken });
    let guestSawQueue = false;
    guestSocket.on('admin:queue-changed', () => (guestSawQueue = true));

    const queued = next<{ position: number; kind: string; pending: { artworks: number } }>(
      adminSocket,
      'admin:queue-changed',
    );
    const created = await client(t.url, guestToken)('POST', '/api/artworks', {
      imageData: await jpegDataUrl(),
      artistName: 'Sam Painter',
      email: 'sam@example.com',
    });
    const change = await queued;
    expect(change).toMatchObject({ kind: 'artwork', pending: { artworks: 1, stories: 0, media: 0 }, archived: 0 });

    const added = next<{ position: number; kind: string; item: Record<string, unknown> }>(
      guestSocket,
      'gallery:item-added',
    );
    await client(t.url, adminToken)('PATCH', `/api/admin/artworks/${created.body.id}`, { status: 'approved' });
    const payload = await added;
    expect(payload.kind).toBe('artwork');
    expect(payload.item).toMatchObject({ id: created.body.id, artistName: 'Sam Painter' });
    expect(payload.item.email).toBeUndefined();
    expect(payload.position).toBeGreaterThan(change.position);
    expect(guestSawQueue).toBe(false);
  });

  it('tells everyone about likes and comments on visible items, with counts', async () => {
    const guestToken = await t.login('guest');
    const adminApi = client(t.url, await t.login('admin'));
    const api = client(t.url, guestToken);
    const created = await api('POST', '/api/stories', {
      content: 'A story',
      authorName: 'Sam',
      email: 'sam@example.com',
      isAnonymous: false,
    });
    await adminApi('PATCH', `/api/admin/stories/${created.body.id}`, { status: 'approved' });
    const watcher = await open({ token: await t.login('guest') });

    const liked = next<{ kind: string; id: number; likeCount: number }>(watcher, 'likes:changed');
    await api('POST', `/api/stories/${created.body.id}/like`);
    expect(await liked).toMatchObject({ kind: 'story', id: created.body.id, likeCount: 1 });

    const commented = next<{ comment: { content: string }; commentCount: number }>(watcher, 'comments:added');
    const comment = await api('POST', `/api/stories/${created.body.id}/comments`, {
      authorName: 'Sam',
      content: 'So true',
    });
    expect(await commented).toMatchObject({ comment: { content: 'So true' }, commentCount: 1 });

    const removed = next<{ commentId: number; commentCount: number }>(watcher, 'comments:removed');
    await api('DELETE', `/api/stories/comments/${comment.body.id}`, undefined, { authorization: 'the-admin-key' });
    expect(await removed).toMatchObject({ commentId: comment.body.id, commentCount: 0 });

    const gone = next<{ kind: string; id: number }>(watcher, 'gallery:item-removed');
    await api('DELETE', `/api/stories/${created.body.id}`, undefined, { authorization: 'the-admin-key' });
    expect(await gone).toEqual(expect.objectContaining({ kind: 'story', id: created.body.id }));
  });
});

// Decision 160: an approval is one step of two messages for an admin (the item for everyone, the queue
// for the admins). The convergence run once lost the second: the connection dropped between them, and
// the reconnect asked for what came after the step's position.
describe('a connection that drops between two messages of one step', () => {
  it('is sent the rest of the step when it comes back, and applies nothing twice', async () => {
    const adminToken = await t.login('admin');
    const applied: string[] = [];
    let batches = 0;
    let droppedAt: number | undefined;
    const screen = startLiveClient(
      (auth) => connect(t.url, { auth, transports: ['websocket'], reconnection: false }) as never,
      new QueryClient(),
      () => adminToken,
      {
        batch: () => batches++,
        applied: (message) => {
          applied.push(`${message.payload.position}:${message.event}`);
          // the connection drops as the step's first message is applied: its second is not taken
          if (message.event === 'gallery:item-added' && droppedAt === undefined) {
            droppedAt = message.payload.position;
            screen.socket.disconnect();
            setTimeout(() => screen.socket.connect(), 100);
          }
        },
      },
    );
    screens.push(screen);
    await waitFor(async () => batches === 1, 10_000);

    const created = await client(t.url, await t.login('guest'))('POST', '/api/stories', {
      content: 'Told in two messages',
      authorName: 'Sam',
      email: 'sam@example.com',
    });
    await client(t.url, adminToken)('PATCH', `/api/admin/stories/${created.body.id}`, { status: 'approved' });
    // the batch of the reconnect is applied before it is counted
    await waitFor(async () => batches === 2, 10_000);

    expect(applied.filter((a) => a.startsWith(`${droppedAt}:`))).toEqual([
      `${droppedAt}:gallery:item-added`,
      `${droppedAt}:admin:queue-changed`,
    ]);
    expect(screen.sequence.resyncs).toBe(0);
  });
});
