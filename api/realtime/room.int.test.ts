import { io as connect, type Socket } from 'socket.io-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Presence } from '#contract/live.ts';
import { ADMIN_KEY, client, startTestServer, type TestServer } from '../../tests/support/server.ts';
import { waitFor } from '../../tests/support/wait.ts';

/** Issue 20, point 7: what the room is told counts and names only what it may. */
let t: TestServer;
const sockets: Socket[] = [];
beforeAll(async () => {
  t = await startTestServer();
});
afterAll(async () => {
  for (const s of sockets) s.close();
  await t?.close();
});

/** A socket that keeps every message it is sent, and the last presence. */
function open(auth: Record<string, unknown>) {
  const socket = connect(t.url, { auth, transports: ['websocket'], reconnection: false });
  sockets.push(socket);
  const seen = { messages: [] as Array<{ event: string; payload: any }>, presence: undefined as Presence | undefined };
  socket.onAny((event: string, payload: unknown) => {
    seen.messages.push({ event, payload });
    if (event === 'presence') seen.presence = payload as Presence;
  });
  const ready = new Promise<void>((resolve, reject) => {
    socket.once('connect', () => resolve());
    socket.once('connect_error', reject);
  });
  return { socket, seen, ready };
}

describe('presence', () => {
  it('counts only sockets with a session as online', async () => {
    const presenter = open({ token: await t.login('admin') });
    await presenter.ready;
    await waitFor(async () => presenter.seen.presence?.online === 1, 10_000);
    // a refused handshake, and connections that never make one, stay open below socket.io for a while
    const refused = open({});
    await expect(refused.ready).rejects.toThrow('Authentication required');
    const strangers = await Promise.all(
      Array.from(
        { length: 3 },
        () =>
          new Promise<WebSocket>((resolve, reject) => {
            const ws = new WebSocket(`${t.url.replace('http', 'ws')}/socket.io/?EIO=4&transport=websocket`);
            ws.onmessage = () => resolve(ws);
            ws.onerror = reject;
          }),
      ),
    );
    const guest = open({ token: await t.login('guest') });
    await guest.ready;
    await waitFor(async () => guest.seen.presence !== undefined, 10_000);
    const count = presenter.seen.messages.length;
    await waitFor(async () => presenter.seen.messages.length > count || presenter.seen.presence?.online === 2, 10_000);
    expect(presenter.seen.presence?.online).toBe(2);
    guest.socket.close();
    for (const ws of strangers) ws.close();
  });
});

describe('live messages to guests', () => {
  it('never name an item a guest cannot see; admins still hear of it', async () => {
    const admin = client(t.url, await t.login('admin'));
    const guest = open({ token: await t.login('guest') });
    const adminSocket = open({ token: await t.login('admin') });
    await Promise.all([guest.ready, adminSocket.ready]);
    const story = async (content: string) => {
      const res = await admin('POST', '/api/stories', { content, authorName: 'Kim', isAnonymous: true });
      expect(res.status).toBe(201);
      return res.body.id as number;
    };
    const deleteStory = (id: number) =>
      admin('DELETE', `/api/stories/${id}`, undefined, { authorization: `Bearer ${ADMIN_KEY}` });

    const rejected = await story('Rejected before anyone saw it');
    expect((await admin('PATCH', `/api/admin/stories/${rejected}`, { status: 'rejected' })).status).toBe(200);
    const deleted = await story('Deleted while pending');
    expect((await deleteStory(deleted)).status).toBe(200);
    const shown = await story('Shown, then deleted');
    expect((await admin('PATCH', `/api/admin/stories/${shown}`, { status: 'approved' })).status).toBe(200);
    expect((await deleteStory(shown)).status).toBe(200);

    const removedIds = (seen: typeof guest.seen) =>
      seen.messages.filter((m) => m.event === 'gallery:item-removed').map((m) => m.payload.id as number);
    // the last removal is one guests must get: everything before it has been sent by then
    await waitFor(async () => removedIds(guest.seen).includes(shown), 15_000);
    expect(removedIds(guest.seen)).toEqual([shown]);
    const named = guest.seen.messages.filter((m) => m.payload?.kind === 'story' && m.payload?.id !== undefined);
    expect(named.map((m) => m.payload.id)).not.toContain(rejected);
    expect(named.map((m) => m.payload.id)).not.toContain(deleted);
    // the admins' queue follows every decision
    await waitFor(
      async () => adminSocket.seen.messages.filter((m) => m.event === 'admin:queue-changed').length >= 6,
      15_000,
    );
  });
});
