import { io as connect, type Socket } from 'socket.io-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Presence } from '#contract/live.ts';
import { ADMIN_KEY, client, startTestServer, type TestServer } from '../../tests/support/server.ts';
import { jpegDataUrl } from '../../tests/support/images.ts';
import { waitFor } from '../../tests/support/wait.ts';
import { dayOrder } from '#projections/catalog/galleryPage.ts';

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

describe('an item leaving the gallery (decision 140)', () => {
  it('is named once, with its place in the day’s order, even when an archived item is deleted later', async () => {
    const admin = client(t.url, await t.login('admin'));
    const guest = open({ token: await t.login('guest') });
    await guest.ready;
    const sent = await admin('POST', '/api/artworks', {
      title: 'Archived, then deleted',
      artistName: 'Kim',
      email: 'kim@example.com',
      imageData: await jpegDataUrl(64, 48),
      isFromCanvas: 'false',
    });
    expect(sent.status).toBe(201);
    const artwork = sent.body.id as number;
    for (const status of ['approved', 'archived']) {
      expect((await admin('PATCH', `/api/admin/artworks/${artwork}`, { status })).status).toBe(200);
    }
    const key = { authorization: `Bearer ${ADMIN_KEY}` };
    expect((await admin('DELETE', `/api/artworks/${artwork}`, undefined, key)).status).toBe(200);
    // a story shown and deleted after it: its removal is the last, so every one before it has come
    const story = await admin('POST', '/api/stories', {
      content: 'The last to go',
      authorName: 'Kim',
      isAnonymous: true,
    });
    expect((await admin('PATCH', `/api/admin/stories/${story.body.id}`, { status: 'approved' })).status).toBe(200);
    expect((await admin('DELETE', `/api/stories/${story.body.id}`, undefined, key)).status).toBe(200);

    const removed = () => guest.seen.messages.filter((m) => m.event === 'gallery:item-removed').map((m) => m.payload);
    await waitFor(async () => removed().some((p) => p.kind === 'story' && p.id === story.body.id), 15_000);
    expect(removed().map((p) => `${p.kind} ${p.id}`)).toEqual([`artwork ${artwork}`, `story ${story.body.id}`]);
    const [archived] = removed();
    expect(archived.day).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    expect(archived.order).toBe(dayOrder(archived.day, 'artwork', artwork));
  });
});

describe('the mural’s strokes (decision 116)', () => {
  const stroke = (color: string) => ({
    tool: 'brush',
    color,
    size: 8,
    opacity: 100,
    points: [
      [10, 10],
      [60, 40],
    ],
  });
  const muralMessages = (seen: { messages: Array<{ event: string; payload: any }> }) =>
    seen.messages.filter((m) => m.event.startsWith('mural:'));
  const strokeIds = (seen: { messages: Array<{ event: string; payload: any }> }) =>
    seen.messages.filter((m) => m.event === 'mural:stroke-added').map((m) => m.payload.stroke.id as number);

  it('go only to sockets that watch the mural, joined at the handshake or later, in order with the rest', async () => {
    const admin = client(t.url, await t.login('admin'));
    const artist = client(t.url, await t.login('guest'));
    const story = await admin('POST', '/api/stories', {
      content: 'Strokes elsewhere',
      authorName: 'Kim',
      isAnonymous: true,
    });
    expect((await admin('PATCH', `/api/admin/stories/${story.body.id}`, { status: 'approved' })).status).toBe(200);
    const browsing = open({ token: await t.login('guest') });
    const watching = open({ token: await t.login('guest'), mural: true });
    const later = open({ token: await t.login('guest') });
    await Promise.all([browsing.ready, watching.ready, later.ready]);

    const first = (await artist('POST', '/api/mural/strokes', stroke('#dc2626'))).body.id as number;
    await waitFor(async () => strokeIds(watching.seen).includes(first), 15_000);
    // a message for everyone after it: by the time it arrives, a stroke sent to everyone would have
    expect((await artist('POST', `/api/stories/${story.body.id}/likes`)).status).toBe(200);
    const liked = (seen: typeof browsing.seen) => seen.messages.some((m) => m.event === 'likes:changed');
    await waitFor(async () => liked(browsing.seen) && liked(later.seen) && liked(watching.seen), 15_000);
    expect(muralMessages(browsing.seen)).toEqual([]);
    expect(muralMessages(later.seen)).toEqual([]);

    // a mural comes on the page: the join is acknowledged with where the socket stands, strokes follow
    const upTo = await new Promise<number>((resolve) => later.socket.emit('mural:watch', true, resolve));
    expect(upTo).toBeGreaterThanOrEqual(strokeIdsPosition(watching.seen, first));
    const second = (await artist('POST', '/api/mural/strokes', stroke('#16a34a'))).body.id as number;
    await waitFor(async () => strokeIds(later.seen).includes(second) && strokeIds(watching.seen).includes(second));
    expect(strokeIds(later.seen)).toEqual([second]);
    // the mural's message names the last of everyone's and the mural's before it: the like, then the first stroke
    const sent = watching.seen.messages.find(
      (m) => m.event === 'mural:stroke-added' && m.payload.stroke.id === second,
    )!;
    const like = watching.seen.messages.find((m) => m.event === 'likes:changed')!;
    expect(sent.payload.after).toBe(Math.max(like.payload.position, strokeIdsPosition(watching.seen, first)));

    // and goes again: nothing more is sent
    await new Promise<number>((resolve) => later.socket.emit('mural:watch', false, resolve));
    const third = (await artist('POST', '/api/mural/strokes', stroke('#7c3aed'))).body.id as number;
    await waitFor(async () => strokeIds(watching.seen).includes(third));
    expect((await artist('DELETE', `/api/stories/${story.body.id}/likes`)).status).toBe(200);
    const likes = (seen: typeof later.seen) => seen.messages.filter((m) => m.event === 'likes:changed').length;
    await waitFor(async () => likes(later.seen) === 2);
    expect(strokeIds(later.seen)).toEqual([second]);
    expect(muralMessages(browsing.seen)).toEqual([]);
  });

  it('are in a catch-up only for a socket that watches the mural', async () => {
    const artist = client(t.url, await t.login('guest'));
    const first = open({ token: await t.login('guest'), mural: true });
    await first.ready;
    const before = (await artist('POST', '/api/mural/strokes', stroke('#0ea5e9'))).body.id as number;
    await waitFor(async () => strokeIds(first.seen).includes(before), 15_000);
    const since = strokeIdsPosition(first.seen, before);
    const missed = (await artist('POST', '/api/mural/strokes', stroke('#f59e0b'))).body.id as number;
    await waitFor(async () => strokeIds(first.seen).includes(missed), 15_000);

    const batchOf = async (auth: Record<string, unknown>) => {
      const back = open({ token: await t.login('guest'), since, ...auth });
      await back.ready;
      await waitFor(async () => back.seen.messages.some((m) => m.event === 'sync:batch'), 15_000);
      return back.seen.messages.find((m) => m.event === 'sync:batch')!.payload as {
        refetch: boolean;
        messages: Array<{ event: string; payload: any }>;
      };
    };
    const watching = await batchOf({ mural: true });
    expect(watching.refetch).toBe(false);
    expect(watching.messages.map((m) => m.payload.stroke?.id)).toContain(missed);
    const browsing = await batchOf({});
    expect(browsing.refetch).toBe(false);
    expect(browsing.messages.filter((m) => m.event.startsWith('mural:'))).toEqual([]);
  });
});

/** The position of the `mural:stroke-added` of stroke `id` among what a socket was sent. */
function strokeIdsPosition(seen: { messages: Array<{ event: string; payload: any }> }, id: number): number {
  return seen.messages.find((m) => m.event === 'mural:stroke-added' && m.payload.stroke.id === id)!.payload.position;
}
