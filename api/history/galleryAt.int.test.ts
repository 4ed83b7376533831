import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TimeTravel } from '#projections/timeTravel.ts';
import { SnapshotKeeper } from '#projections/timeTravel/snapshotKeeper.ts';
import { seeder, type Seeder } from '../../tests/support/seedGallery.ts';
import { client, startTestServer, type TestServer } from '../../tests/support/server.ts';
import { caughtUp, waitFor } from '../../tests/support/wait.ts';

let t: TestServer;
let s: Seeder;
let auditor: ReturnType<typeof client>;
const head = async () => {
  await caughtUp(t);
  const { rows } = await t.db.pool.query(`SELECT coalesce(max(seq), 0)::int AS seq FROM event_chain`);
  return rows[0].seq as number;
};
let first: number;
let second: number;
let beforeSecondApproved: number;
let secondApproved: number;
let afterLikes: number;
beforeAll(async () => {
  t = await startTestServer();
  s = await seeder(t);
  auditor = client(t.url, await t.login('auditor'));
  first = await s.artwork({ title: 'Morning' });
  const storyId = (
    await s.guest('POST', '/api/stories', {
      content: 'Pending then approved',
      authorName: 'Lee',
      email: 'lee@example.com',
    })
  ).body.id;
  await s.guest('POST', `/api/artworks/${first}/like`);
  beforeSecondApproved = await head();
  await s.admin('PATCH', `/api/admin/stories/${storyId}`, { status: 'approved', adminNotes: 'yes' });
  second = storyId;
  secondApproved = await head();
  const other = client(t.url, await t.login('guest'));
  await other('POST', `/api/artworks/${first}/like`);
  await s.admin('PATCH', `/api/admin/artworks/${first}`, { status: 'archived' });
  afterLikes = await head();
}, 120_000);
afterAll(() => t.close());

const at = async (seq: number, extra = '') => (await auditor('GET', `/api/gallery?at=${seq}${extra}`)).body;
const ids = (page: { items: Array<{ kind: string; id: number }> }) => page.items.map((i) => `${i.kind}:${i.id}`).sort();

describe('GET /api/gallery?at=SEQ', () => {
  it('answers the gallery as it was right after that event, in the same shape plus at', async () => {
    const before = await at(beforeSecondApproved);
    expect(before.at).toBe(beforeSecondApproved);
    expect(ids(before)).toEqual([`artwork:${first}`]);
    expect(before.items[0].likeCount).toBe(1);
    const after = await at(secondApproved);
    expect(ids(after)).toEqual([`artwork:${first}`, `story:${second}`].sort());
    expect(after.items.find((i: { kind: string }) => i.kind === 'artwork').likeCount).toBe(1);
    const archived = await at(afterLikes);
    expect(ids(archived)).toEqual([`story:${second}`]);
    expect((await at(0)).items).toEqual([]);
  });

  it('at the head is the live gallery', async () => {
    const live = await waitFor(async () => {
      const g = await auditor('GET', '/api/gallery');
      return g.body.items.length === 1 && g.body;
    });
    const { at: seq, ...travelled } = await at(await head());
    expect(seq).toBeGreaterThan(0);
    expect(travelled).toEqual(live);
    expect(Object.keys(travelled).sort()).toEqual(Object.keys(live).sort());
  });

  it('is for admins and auditors only, and refuses a bad seq', async () => {
    expect((await s.guest('GET', '/api/gallery?at=1')).status).toBe(403);
    expect((await client(t.url)('GET', '/api/gallery?at=1')).status).toBe(401);
    expect((await s.admin('GET', '/api/gallery?at=1')).status).toBe(200);
    for (const bad of ['-1', 'x', '1.5']) {
      const res = await auditor('GET', `/api/gallery?at=${bad}`);
      expect(res.status).toBe(400);
      expect(res.body.message).toContain('at must be a seq');
    }
    const past = await auditor('GET', `/api/gallery?at=${(await head()) + 5}`);
    expect(past.status).toBe(400);
    expect(past.body.message).toContain('past the end of the log');
  });

  it('gives the same answer at every seq whichever way it gets there (snapshots, going on, going back)', async () => {
    const end = await head();
    const day = '2025-09-12';
    const plain = new TimeTravel(t.db.url);
    const snapshotting = new TimeTravel(t.db.url);
    // checkpoints every 3 seqs, kept by a keeper of its own (the server's keeps them every 1000)
    const keeper = new SnapshotKeeper(t.db.url, console, { every: 3 });
    try {
      await keeper.keepUp();
      const seqs = Array.from({ length: end + 1 }, (_, i) => i);
      const shuffled = [...seqs, ...seqs].sort(() => Math.random() - 0.5);
      const expected = new Map<number, unknown>();
      for (const seq of seqs) {
        await plain.fullReplay(0);
        expected.set(seq, await plain.page(seq, { page: 1, q: '', day }));
      }
      for (const seq of shuffled) {
        expect(await snapshotting.page(seq, { page: 1, q: '', day }), `at ${seq}`).toEqual(expected.get(seq));
      }
    } finally {
      await plain.close();
      await snapshotting.close();
      await keeper.stop();
    }
  });

  it('forgets erased words: the same seq asked again after an erasure is without them, and no browser keeps it (issue 21)', async () => {
    const storyId = (
      await s.guest('POST', '/api/stories', {
        content: 'Gossamer heron words',
        authorName: 'Isembard Larkspur',
        email: 'isembard@example.com',
      })
    ).body.id;
    await s.admin('PATCH', `/api/admin/stories/${storyId}`, { status: 'approved' });
    const seq = await head();
    const asked = await auditor('GET', `/api/gallery?at=${seq}`);
    expect(JSON.stringify(asked.body)).toContain('Gossamer heron words');
    expect(asked.headers.get('cache-control')).not.toMatch(/max-age/);
    // and a snapshot below, with the words folded into it
    const below = await at(seq - 1);
    expect(ids(below)).not.toContain(`story:${storyId}`);

    expect((await s.admin('POST', '/api/admin/erase', { email: 'isembard@example.com' })).status).toBe(200);
    for (const again of [seq, seq - 1, seq]) {
      const text = JSON.stringify(await at(again));
      expect(text, `at ${again}`).not.toContain('Gossamer heron words');
      expect(text, `at ${again}`).not.toContain('Isembard Larkspur');
    }
  });
});
