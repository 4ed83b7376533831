import pg from 'pg';
import { io as connect, type Socket } from 'socket.io-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LiveMessage, SyncBatch } from '#contract/live.ts';
import { jpegDataUrl } from '../../tests/support/images.ts';
import {
  ADMIN_KEY,
  client,
  startSecondProcess,
  startTestServer,
  type SecondProcess,
  type TestServer,
} from '../../tests/support/server.ts';
import { appended, waitFor } from '../../tests/support/wait.ts';

/**
 * Issue 21: a delete or an erasure forgets only what it must from the live outbox and every tail's
 * memory; a catch-up is whole (or says refetch) and never carries erased words; an erasure removes
 * the person's comments from open screens. Each test failed before decision 073.
 */
let t: TestServer;
let other: SecondProcess | undefined;
let admin: ReturnType<typeof client>;
const sockets: Socket[] = [];
beforeAll(async () => {
  t = await startTestServer();
  admin = client(t.url, await t.login('admin'));
});
afterAll(async () => {
  for (const s of sockets) s.close();
  await other?.close();
  await t.close();
});

function open(url: string, auth: Record<string, unknown>): Socket {
  const socket = connect(url, { auth, transports: ['websocket'], reconnection: false });
  sockets.push(socket);
  return socket;
}

/** The batch a socket joining with `since` is sent. */
async function catchUp(url: string, since: number): Promise<SyncBatch> {
  const socket = open(url, { token: await t.login('guest'), since });
  const batch = await new Promise<SyncBatch>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('no sync:batch')), 10_000);
    socket.once('sync:batch', (b: SyncBatch) => {
      clearTimeout(timer);
      resolve(b);
    });
  });
  socket.close();
  return batch;
}

/** Waits until every appended event is sealed and folded, and this process's tail has sent it. */
async function settled() {
  await t.server.runner!.wake();
  const at = await waitFor(async () => {
    const { rows } = await t.db.pool.query<{ sealed: number; events: number; catalog: number }>(
      `SELECT (SELECT count(*) FROM event_chain)::int AS sealed, (SELECT count(*) FROM events)::int AS events,
         catalog_position()::int AS catalog`,
    );
    const r = rows[0]!;
    return r.sealed === r.events && r.catalog === r.sealed ? r.catalog : false;
  }, 30_000);
  expect(await t.server.deps.realtime!.reach(at, 10_000)).toBe(true);
  return at;
}

/**
 * Runs `writes` one after the other (each appended before the next starts) while the sealer cannot
 * seal (the chain's checkpoint row is locked), so that they are sealed, and folded by the catalog,
 * in one batch, in this order.
 */
async function inOneBatch(writes: Array<() => Promise<unknown>>) {
  const holder = new pg.Client({ connectionString: t.db.url });
  await holder.connect();
  const count = async () => (await t.db.pool.query<{ n: number }>(`SELECT count(*)::int AS n FROM events`)).rows[0]!.n;
  try {
    await holder.query('BEGIN');
    await holder.query(`SELECT 1 FROM projection_checkpoints WHERE name = 'chain' FOR UPDATE`);
    const answers = [];
    for (const write of writes) {
      const before = await count();
      answers.push(write());
      await waitFor(async () => (await count()) > before, 30_000);
    }
    await holder.query('COMMIT');
    return await Promise.all(answers);
  } finally {
    await holder.end();
  }
}

async function approvedStory(content: string, token?: string) {
  const guest = client(t.url, token ?? (await t.login('guest')));
  const created = await guest('POST', '/api/stories', { content, authorName: 'Sam', email: 'sam@example.com' });
  expect((await admin('PATCH', `/api/admin/stories/${created.body.id}`, { status: 'approved' })).status).toBe(200);
  return created.body.id as number;
}

const events = (batch: SyncBatch) => batch.messages.map((m: LiveMessage) => `${m.event}:${JSON.stringify(m.payload)}`);

describe('a delete during the party', () => {
  it('forgets only the deleted item: a screen catching up from before a like and a delete folded together gets both', async () => {
    const kept = await approvedStory('A story that stays');
    const deleted = await approvedStory('A story the admin deletes');
    const since = await settled();
    const guest = client(t.url, await t.login('guest'));
    await inOneBatch([
      () => guest('POST', `/api/stories/${kept}/likes`),
      () => guest('DELETE', `/api/stories/${deleted}`, undefined, { authorization: `Bearer ${ADMIN_KEY}` }),
    ]);
    await settled();
    // from this process's memory, and from the outbox (a process that has nothing in memory)
    other = await startSecondProcess(t);
    for (const url of [t.url, other.url]) {
      const batch = await catchUp(url, since);
      expect(batch.refetch).toBe(false);
      expect(batch.messages.map((m) => `${m.event} ${(m.payload as { id?: number }).id}`)).toEqual([
        `likes:changed ${kept}`,
        `gallery:item-removed ${deleted}`,
      ]);
    }
    // and a screen away since before the deleted story arrived is not sent its words
    const batch = await catchUp(t.url, since - 4);
    expect(batch.refetch).toBe(false);
    expect(JSON.stringify(batch)).not.toContain('A story the admin deletes');
  });
});

describe('an erasure', () => {
  const WORDS = { title: 'Quillon Marigold Harbour', name: 'Perpetua Wintergreen', comment: 'Velvet kestrel remark' };

  it('takes the person’s words out of every catch-up, from memory and from the outbox, and nothing else', async () => {
    const kept = await approvedStory('Someone else’s story');
    const since = await settled();
    const token = await t.login('guest');
    const person = client(t.url, token);
    const artwork = await person('POST', '/api/artworks', {
      title: WORDS.title,
      artistName: WORDS.name,
      email: 'perpetua@example.com',
      imageData: await jpegDataUrl(32, 24, '#aa3355'),
      isFromCanvas: 'false',
    });
    await admin('PATCH', `/api/admin/artworks/${artwork.body.id}`, { status: 'approved' });
    // the artwork's renditions are a job, appended when it is done: nothing orders it before the
    // erasure, whose position the open screen's messages are checked against below
    await appended(t.db.pool, 'ArtworkRenditionsMade', 1, `artwork-${artwork.body.id}`);
    const comment = await person('POST', `/api/stories/${kept}/comments`, {
      authorName: WORDS.name,
      content: WORDS.comment,
    });
    expect(comment.status).toBe(201);
    await person('POST', `/api/stories/${kept}/likes`);
    await settled();
    const before = JSON.stringify(await catchUp(t.url, since));
    expect(before).toContain(WORDS.title);
    expect(before).toContain(WORDS.comment);

    // a screen open through the erasure sees the comment leave the story that stays
    const watcher = open(t.url, { token: await t.login('guest') });
    const seen: Array<{ event: string; payload: Record<string, unknown> }> = [];
    watcher.onAny((event: string, payload: Record<string, unknown>) => seen.push({ event, payload }));
    await waitFor(async () => seen.some((s) => s.event === 'sync:batch'), 10_000);
    expect((await admin('POST', '/api/admin/erase', { email: 'perpetua@example.com' })).status).toBe(200);
    const erasedAt = await settled();
    await waitFor(async () => seen.some((s) => s.event === 'comments:removed'), 10_000);
    // the log's messages: presence and the projections' lag status (decision 079) are the room's state
    const STATUS = ['sync:batch', 'presence', 'projections:lag'];
    expect(seen.filter((s) => !STATUS.includes(s.event))).toEqual([
      {
        event: 'gallery:item-removed',
        payload: expect.objectContaining({ position: erasedAt, kind: 'artwork', id: artwork.body.id }),
      },
      {
        event: 'comments:removed',
        payload: expect.objectContaining({
          position: erasedAt,
          kind: 'story',
          id: kept,
          commentId: comment.body.id,
          commentCount: 0,
        }),
      },
    ]);

    other ??= await startSecondProcess(t);
    // settled() waited for this process's tail; the other's follows the outbox on its own, and a
    // catch-up gives what its process has sent (the erasure comes live after it): wait for it too
    expect(await other.server.deps.realtime!.reach(erasedAt, 10_000)).toBe(true);
    for (const url of [t.url, other.url]) {
      const batch = await catchUp(url, since);
      expect(batch.refetch).toBe(false);
      const text = JSON.stringify(batch);
      for (const word of Object.values(WORDS)) expect(text).not.toContain(word);
      // the like stays a count; the artwork leaves; the comment leaves the story
      expect(events(batch).map((e) => e.split(':{')[0])).toEqual([
        'likes:changed',
        'gallery:item-removed',
        'comments:removed',
      ]);
    }
  });
});

describe('a tail', () => {
  it('goes on past a position that alone holds more messages than one read takes', async () => {
    const story = await approvedStory('Liked after the crowded position');
    const at = await settled();
    // the next position's messages, more than a read takes, as an erasure of a prolific person gives
    await t.db.pool.query(
      `INSERT INTO live_messages (position, ord, room, event, after, payload)
       SELECT $1::bigint, 100 + n, 'everyone', 'likes:changed', $1::bigint - 1,
         jsonb_build_object('position', $1::bigint, 'after', $1::bigint - 1, 'kind', 'story', 'id', $2::int, 'likeCount', 0)
       FROM generate_series(1, 2100) n`,
      [at + 1, story],
    );
    const watcher = open(t.url, { token: await t.login('guest') });
    const likes: number[] = [];
    watcher.on('likes:changed', (p: { likeCount: number }) => likes.push(p.likeCount));
    await new Promise((resolve) => watcher.once('sync:batch', resolve));
    const guest = client(t.url, await t.login('guest'));
    await guest('POST', `/api/stories/${story}/likes`);
    await settled();
    // the like's own message is at that position too, before the 2,100 (its ord is 0): its arrival
    // is no sign that the rest have arrived, so wait for all of them (a stalled tail times out here)
    await waitFor(async () => likes.length > 2100, 10_000);
    expect(likes).toContain(1);
    expect(likes.filter((n) => n === 0)).toHaveLength(2100);
  });
});
