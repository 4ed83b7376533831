import fs from 'node:fs';
import path from 'node:path';
import { io as connect, type Socket } from 'socket.io-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EventStore } from '#events/store.ts';
import { catalogProjection } from '#projections/catalog/catalogProjection.ts';
import { check } from '#projections/maintenance.ts';
import { jpegDataUrl } from '../../tests/support/images.ts';
import { ADMIN_KEY, client, startTestServer, type TestServer } from '../../tests/support/server.ts';

let t: TestServer;
let ann: ReturnType<typeof client>;
let bob: ReturnType<typeof client>;
let admin: ReturnType<typeof client>;
let annToken: string;
let bobToken: string;
let adminToken: string;
const sockets: Socket[] = [];
beforeAll(async () => {
  t = await startTestServer();
  annToken = await t.login('guest');
  bobToken = await t.login('guest');
  adminToken = await t.login('admin');
  ann = client(t.url, annToken);
  bob = client(t.url, bobToken);
  admin = client(t.url, adminToken);
});
afterAll(async () => {
  for (const s of sockets) s.close();
  await t.close();
});

async function story(who: ReturnType<typeof client>, content: string, extra: Record<string, unknown> = {}) {
  const res = await who('POST', '/api/stories', { content, authorName: 'Ann', email: 'ann@example.com', ...extra });
  expect(res.status).toBe(201);
  return res.body.id as number;
}

const typesOf = async (stream: string) =>
  (
    await t.db.pool.query<{ type: string }>(`SELECT type FROM events WHERE stream_id = $1 ORDER BY stream_version`, [
      stream,
    ])
  ).rows.map((r) => r.type);

function open(token: string): Promise<Socket> {
  const socket = connect(t.url, { auth: { token }, transports: ['websocket'], reconnection: false });
  sockets.push(socket);
  return new Promise((resolve, reject) => {
    socket.once('connect', () => resolve(socket));
    socket.once('connect_error', reject);
  });
}

/** Every message a socket gets, by event. */
function record(socket: Socket) {
  const seen: Array<{ event: string; payload: any }> = [];
  socket.onAny((event: string, payload: unknown) => seen.push({ event, payload }));
  return seen;
}

const until = async (check: () => boolean, what: string) => {
  const deadline = Date.now() + 10_000;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
};

describe('GET /api/mine', () => {
  it("lists what this browser sent, newest first, with its state and times, and nothing of another's", async () => {
    const first = await story(ann, 'My first story');
    const second = await story(ann, 'My second story', { title: 'Second' });
    const bobs = await story(bob, "Bob's story");
    await admin('PATCH', `/api/admin/stories/${first}`, { status: 'approved', adminNotes: 'a private note' });

    const mine = await ann('GET', '/api/mine');
    expect(mine.status).toBe(200);
    const ids = mine.body.items.map((i: { id: number }) => i.id);
    expect(ids.indexOf(second)).toBeLessThan(ids.indexOf(first));
    expect(ids).not.toContain(bobs);
    const firstItem = mine.body.items.find((i: { id: number }) => i.id === first);
    expect(firstItem).toMatchObject({ kind: 'story', status: 'approved', submittedAt: expect.any(String) });
    expect(Date.parse(firstItem.decidedAt)).toBeGreaterThanOrEqual(Date.parse(firstItem.submittedAt));
    expect(mine.body.items.find((i: { id: number }) => i.id === second)).toMatchObject({
      title: 'Second',
      status: 'pending',
      decidedAt: null,
      text: { content: 'My second story' },
    });
    expect(JSON.stringify(mine.body)).not.toContain('a private note');
    expect(JSON.stringify(mine.body)).not.toContain('ann@example.com');

    const bobsList = await bob('GET', '/api/mine');
    expect(bobsList.body.items.map((i: { id: number }) => i.id)).toEqual([bobs]);
  });

  it('shows a rejected item as rejected, and needs a session', async () => {
    const id = await story(ann, 'Will be rejected');
    await admin('PATCH', `/api/admin/stories/${id}`, { status: 'rejected', adminNotes: 'not this one' });
    const item = (await ann('GET', '/api/mine')).body.items.find((i: { id: number }) => i.id === id);
    expect(item).toMatchObject({ status: 'rejected', decidedAt: expect.any(String) });
    expect(JSON.stringify(item)).not.toContain('not this one');
    expect((await client(t.url)('GET', '/api/mine')).status).toBe(401);
  });
});

describe('PATCH /api/mine/{kind}/{id}', () => {
  it('edits a pending story: the log keeps the edit, the admin queue shows the new words live', async () => {
    const id = await story(ann, 'Tpyo in here', { title: 'Old title' });
    const adminSocket = await open(adminToken);
    const adminSaw = record(adminSocket);
    const res = await ann('PATCH', `/api/mine/story/${id}`, { content: 'Typo fixed', title: 'New title' });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id, status: 'pending', title: 'New title', text: { content: 'Typo fixed' } });
    expect(await typesOf(`story-${id}`)).toEqual(['StorySubmitted', 'StoryEdited']);
    await until(() => adminSaw.some((m) => m.event === 'admin:queue-changed'), 'the queue message');
    const pending = await admin('GET', '/api/admin/stories/pending');
    expect(pending.body.find((s: { id: number }) => s.id === id)).toMatchObject({
      title: 'New title',
      content: 'Typo fixed',
      authorName: 'Ann',
    });
  });

  it('edits only the fields sent, and an artwork by its artwork fields', async () => {
    const created = await ann('POST', '/api/artworks', {
      imageData: await jpegDataUrl(),
      title: 'Sunset',
      description: 'Orange',
      artistName: 'Ann Painter',
      email: 'ann@example.com',
    });
    const id = created.body.id as number;
    const res = await ann('PATCH', `/api/mine/artwork/${id}`, { description: 'Orange and pink' });
    expect(res.status).toBe(200);
    expect(res.body.text).toEqual({
      title: 'Sunset',
      description: 'Orange and pink',
      tags: null,
      artistName: 'Ann Painter',
    });
  });

  it("answers 404 for another browser's item, an unknown one, a malformed id or kind, and changes nothing", async () => {
    const id = await story(ann, 'Only mine to edit');
    for (const [who, url] of [
      [bob, `/api/mine/story/${id}`],
      [ann, `/api/mine/story/999999`],
      [ann, `/api/mine/story/abc`],
      [ann, `/api/mine/story/-1`],
      [ann, `/api/mine/story/1e3`],
      [ann, `/api/mine/artwork/${id}`],
      [ann, `/api/mine/poem/${id}`],
    ] as const) {
      const res = await who('PATCH', url, { content: 'Hijacked' });
      expect(res.status, url).toBe(404);
      expect(res.body.message).toMatch(/not found|Kind must be/);
    }
    expect((await bob('DELETE', `/api/mine/story/${id}`)).status).toBe(404);
    expect(await typesOf(`story-${id}`)).toEqual(['StorySubmitted']);
  });

  it('answers 409 once the item is decided or withdrawn', async () => {
    const approved = await story(ann, 'Approved before the edit');
    await admin('PATCH', `/api/admin/stories/${approved}`, { status: 'approved' });
    const late = await ann('PATCH', `/api/mine/story/${approved}`, { content: 'Too late' });
    expect(late.status).toBe(409);
    expect(late.body).toMatchObject({ message: 'Story was already approved', status: 'approved' });

    const rejected = await story(ann, 'Rejected before the edit');
    await admin('PATCH', `/api/admin/stories/${rejected}`, { status: 'rejected' });
    expect((await ann('PATCH', `/api/mine/story/${rejected}`, { content: 'x' })).body).toMatchObject({
      status: 'rejected',
    });

    const withdrawn = await story(ann, 'Withdrawn before the edit');
    await ann('DELETE', `/api/mine/story/${withdrawn}`);
    const gone = await ann('PATCH', `/api/mine/story/${withdrawn}`, { content: 'x' });
    expect(gone.status).toBe(409);
    expect(gone.body).toMatchObject({ status: 'withdrawn' });
    expect(await typesOf(`story-${approved}`)).toEqual(['StorySubmitted', 'StoryApproved']);
  });

  it('refuses bad input with a clear 400 and keeps nothing', async () => {
    const id = await story(ann, 'Bad input target');
    const anonymous = await story(ann, 'An anonymous one', { isAnonymous: true, email: undefined });
    const cases: Array<[string, unknown, string]> = [
      [`/api/mine/story/${id}`, { content: '   ' }, 'Please write something before submitting'],
      [`/api/mine/story/${id}`, { content: 'nul\u0000here' }, 'content contains characters that are not allowed'],
      [`/api/mine/story/${id}`, { title: 'x'.repeat(256) }, 'Title must be 255 characters or fewer'],
      [`/api/mine/story/${id}`, { content: 5 }, 'Please write something before submitting'],
      [`/api/mine/story/${id}`, { status: 'approved' }, 'Unrecognized key'],
      [`/api/mine/story/${id}`, {}, 'Send at least one of the fields to change'],
      [`/api/mine/story/${anonymous}`, { authorName: 'Me after all' }, 'An anonymous story has no name to change'],
    ];
    for (const [url, body, message] of cases) {
      const res = await ann('PATCH', url, body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.message).toContain(message);
    }
    const malformed = await ann('PATCH', `/api/mine/story/${id}`, '{"content": ', {
      'content-type': 'application/json',
    });
    expect(malformed.status).toBe(400);
    expect(await typesOf(`story-${id}`)).toEqual(['StorySubmitted']);
  });

  it('keeps an anonymous story anonymous through an edit', async () => {
    const id = await story(ann, 'Nobody knows', { isAnonymous: true, email: undefined });
    const res = await ann('PATCH', `/api/mine/story/${id}`, { content: 'Still nobody knows' });
    expect(res.status).toBe(200);
    expect(res.body.text).toMatchObject({ content: 'Still nobody knows', authorName: 'Anonymous', isAnonymous: true });
  });
});

describe('DELETE /api/mine/{kind}/{id}', () => {
  it('withdraws a pending item: it leaves the queue, the log keeps the withdrawal, the audit timeline shows it', async () => {
    const id = await story(ann, 'Changed my mind');
    const res = await ann('DELETE', `/api/mine/story/${id}`);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ kind: 'story', id, status: 'withdrawn', title: null, text: null });
    const pending = await admin('GET', '/api/admin/stories/pending');
    expect(pending.body.map((s: { id: number }) => s.id)).not.toContain(id);
    expect(await typesOf(`story-${id}`)).toEqual(['StorySubmitted', 'StoryWithdrawn']);
    const timeline = await admin('GET', `/api/admin/history/story/${id}`);
    expect(timeline.body.events.map((e: { type: string }) => e.type)).toContain('StoryWithdrawn');
    // its words go with it, as a delete's do
    expect(JSON.stringify(timeline.body)).not.toContain('Changed my mind');
    // withdrawing again is the same withdrawal
    expect((await ann('DELETE', `/api/mine/story/${id}`)).status).toBe(200);
    expect(await typesOf(`story-${id}`)).toEqual(['StorySubmitted', 'StoryWithdrawn']);
    expect((await ann('GET', '/api/mine')).body.items.find((i: { id: number }) => i.id === id)).toMatchObject({
      status: 'withdrawn',
      decidedAt: expect.any(String),
    });
  });

  it('withdraws an approved artwork: it leaves the gallery and every open screen, and its files go', async () => {
    const created = await ann('POST', '/api/artworks', {
      imageData: await jpegDataUrl(),
      title: 'Leaving soon',
      artistName: 'Ann Painter',
      email: 'ann@example.com',
    });
    const id = created.body.id as number;
    await admin('PATCH', `/api/admin/artworks/${id}`, { status: 'approved' });
    expect((await bob('GET', `/api/artworks/${id}`)).status).toBe(200);
    const watcher = await open(bobToken);
    const seen = record(watcher);
    const res = await ann('DELETE', `/api/mine/artwork/${id}`);
    expect(res.status).toBe(200);
    await until(
      () => seen.some((m) => m.event === 'gallery:item-removed' && m.payload.id === id),
      'the removal on an open screen',
    );
    expect((await bob('GET', `/api/artworks/${id}`)).status).toBe(404);
    const gallery = await bob('GET', '/api/gallery?page=1');
    expect(gallery.body.items.map((i: { id: number; kind: string }) => `${i.kind}-${i.id}`)).not.toContain(
      `artwork-${id}`,
    );
    const dir = path.join(t.dataDir, 'blobs', 'artworks', String(id));
    await until(() => !fs.existsSync(dir) || fs.readdirSync(dir).length === 0, 'the files to go');
    expect(await typesOf(`artwork-${id}`)).toContain('ArtworkWithdrawn');
  });

  it('withdraws a rejected item too, and not one an admin deleted', async () => {
    const rejected = await story(ann, 'Rejected, then withdrawn');
    await admin('PATCH', `/api/admin/stories/${rejected}`, { status: 'rejected' });
    expect((await ann('DELETE', `/api/mine/story/${rejected}`)).body).toMatchObject({ status: 'withdrawn' });

    const deleted = await story(ann, 'Deleted by the admin');
    expect((await admin('DELETE', `/api/stories/${deleted}`, undefined, { authorization: ADMIN_KEY })).status).toBe(
      200,
    );
    const res = await ann('DELETE', `/api/mine/story/${deleted}`);
    expect(res.status).toBe(404);
    expect((await ann('GET', '/api/mine')).body.items.map((i: { id: number }) => i.id)).not.toContain(deleted);
  });
});

describe('the edit budget', () => {
  it('refuses a 31st edit in ten minutes with 429, and refused input costs nothing', async () => {
    const carol = client(t.url, await t.login('guest'));
    const id = await story(carol, 'Edited many times');
    expect((await carol('PATCH', `/api/mine/story/${id}`, { content: '' })).status).toBe(400);
    for (let n = 1; n <= 30; n++) {
      expect((await carol('PATCH', `/api/mine/story/${id}`, { content: `Version ${n}` })).status).toBe(200);
    }
    const refused = await carol('PATCH', `/api/mine/story/${id}`, { content: 'One too many' });
    expect(refused.status).toBe(429);
    expect((await carol('GET', '/api/mine')).body.items[0].text.content).toBe('Version 30');
  });
});

describe("a withdrawal and the show's queue", () => {
  it("leaves the show's up next when its item is withdrawn during the show", async () => {
    const ids = [await story(ann, 'Show one'), await story(ann, 'Show two'), await story(ann, 'Show three')];
    for (const id of ids) await admin('PATCH', `/api/admin/stories/${id}`, { status: 'approved' });
    const started = await admin('POST', '/api/show', { action: 'start' });
    expect(started.status).toBe(200);
    const next = started.body.upNext as Array<{ kind: string; id: number }>;
    const leaving = next.find((i) => i.kind === 'story' && ids.includes(i.id))!;
    expect(leaving).toBeDefined();
    expect((await ann('DELETE', `/api/mine/story/${leaving.id}`)).status).toBe(200);
    const show = await bob('GET', '/api/show');
    expect(show.body.upNext).not.toContainEqual(leaving);
    expect(show.body.upNext.length).toBeGreaterThan(0);
    await admin('POST', '/api/show', { action: 'stop' });
  });
});

describe('mine:changed', () => {
  it("reaches only the sender's own sockets when its item is decided", async () => {
    const annSocket = await open(annToken);
    const annOther = await open(annToken);
    const bobSocket = await open(bobToken);
    const adminSocket = await open(adminToken);
    const annSaw = record(annSocket);
    const annOtherSaw = record(annOther);
    const bobSaw = record(bobSocket);
    const adminSaw = record(adminSocket);
    const id = await story(ann, 'Tell me when');
    await admin('PATCH', `/api/admin/stories/${id}`, { status: 'approved' });
    const mineChanged = (seen: typeof annSaw) => seen.filter((m) => m.event === 'mine:changed');
    await until(() => mineChanged(annSaw).length > 0 && mineChanged(annOtherSaw).length > 0, 'mine:changed');
    expect(mineChanged(annSaw)[0]!.payload).toMatchObject({
      kind: 'story',
      id,
      status: 'approved',
      position: expect.any(Number),
    });
    // the approval's gallery message comes at the same position: by then the others would have it too
    await until(() => bobSaw.some((m) => m.event === 'gallery:item-added' && m.payload.item.id === id), 'the arrival');
    await until(() => adminSaw.some((m) => m.event === 'gallery:item-added' && m.payload.item.id === id), 'arrival');
    expect(mineChanged(bobSaw)).toEqual([]);
    expect(mineChanged(adminSaw)).toEqual([]);

    // a reconnecting admin or guest is never sent another's in its catch-up
    const since = mineChanged(annSaw)[0]!.payload.position - 1;
    for (const token of [adminToken, bobToken]) {
      const late = connect(t.url, { auth: { token, since }, transports: ['websocket'], reconnection: false });
      sockets.push(late);
      const batch = await new Promise<{ messages: Array<{ event: string }> }>((resolve) =>
        late.once('sync:batch', resolve),
      );
      expect(batch.messages.map((m) => m.event)).not.toContain('mine:changed');
    }
  });
});

describe('edits and withdrawals in the log', () => {
  it('verify, rebuild to the same read models, export, and travel in time', async () => {
    const kept = await story(ann, 'Kept after the edit', { title: 'First words' });
    expect((await ann('PATCH', `/api/mine/story/${kept}`, { title: 'Second words' })).status).toBe(200);
    await admin('PATCH', `/api/admin/stories/${kept}`, { status: 'approved' });
    const gone = await story(ann, 'Taken back after the approval');
    await admin('PATCH', `/api/admin/stories/${gone}`, { status: 'approved' });
    const approvedAt = (await admin('GET', '/api/admin/events?order=desc&limit=1')).body.events[0].seq as number;
    expect((await ann('DELETE', `/api/mine/story/${gone}`)).status).toBe(200);

    expect((await admin('GET', '/api/admin/events/verify')).body).toMatchObject({ ok: true });
    expect(await check(new EventStore(t.db.pool), catalogProjection)).toEqual({ ok: true });

    const exported = await fetch(`${t.url}/api/admin/events/export`, { headers: { 'x-session-token': adminToken } });
    const events = (await exported.text())
      .split('\n')
      .filter((l) => l.startsWith('{'))
      .map((l) => JSON.parse(l) as { streamId: string; type: string });
    const typesIn = (stream: string) => events.filter((e) => e.streamId === stream).map((e) => e.type);
    expect(typesIn(`story-${kept}`)).toEqual(['StorySubmitted', 'StoryEdited', 'StoryApproved']);
    expect(typesIn(`story-${gone}`)).toEqual(['StorySubmitted', 'StoryApproved', 'StoryWithdrawn']);

    // the gallery as it was: the edited words; the withdrawn story's words went with it, from the past too
    const then = (await admin('GET', `/api/gallery?at=${approvedAt}&q=after+the`)).body.items as Array<
      Record<string, unknown>
    >;
    expect(then.find((i) => i.kind === 'story' && i.id === kept)).toMatchObject({ title: 'Second words' });
    expect(then.find((i) => i.kind === 'story' && i.id === gone)).toBeUndefined();
  });
});
