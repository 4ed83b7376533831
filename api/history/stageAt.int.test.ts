import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { client, startTestServer, type TestServer } from '../../tests/support/server.ts';
import { caughtUp, waitFor } from '../../tests/support/wait.ts';
import { FLUSH_MS } from '../show/reactions.ts';

type Client = ReturnType<typeof client>;
type Ref = { kind: string; id: number };

let t: TestServer;
let guest: Client;
let admin: Client;
let auditor: Client;
const seqs = {} as Record<
  'empty' | 'started' | 'reacted' | 'moved' | 'stopped' | 'threeStrokes' | 'twoStrokes',
  number
>;
let deck: Ref[] = [];
const strokeIds: number[] = [];

const head = async () => {
  await caughtUp(t);
  const { rows } = await t.db.pool.query(`SELECT coalesce(max(seq), 0)::int AS seq FROM event_chain`);
  return rows[0].seq as number;
};

const stroke = (x: number) => ({
  tool: 'brush',
  color: '#dc2626',
  size: 20,
  opacity: 100,
  points: [
    [x, 100],
    [x + 200, 120],
  ],
});

beforeAll(async () => {
  t = await startTestServer();
  guest = client(t.url, await t.login('guest'));
  admin = client(t.url, await t.login('admin'));
  auditor = client(t.url, await t.login('auditor'));
  for (const title of ['One', 'Two', 'Three']) {
    const created = await guest('POST', '/api/stories', {
      title,
      content: `A story called ${title}.`,
      authorName: 'Priya Shah',
      email: 'priya@example.com',
    });
    await admin('PATCH', `/api/admin/stories/${created.body.id}`, { status: 'approved' });
  }
  seqs.empty = await head();

  const started = await admin('POST', '/api/show', { action: 'start' });
  expect(started.status).toBe(200);
  deck = [started.body.current, ...started.body.upNext];
  seqs.started = await head();

  const first = deck[0]!;
  for (const emoji of ['👏', '👏', '❤️']) {
    expect((await guest('POST', `/api/stories/${first.id}/reactions`, { emoji })).status).toBe(202);
  }
  await new Promise((r) => setTimeout(r, FLUSH_MS * 3));
  await waitFor(async () => (await guest('GET', `/api/stories/${first.id}`)).body.reactions['❤️'] === 1);
  seqs.reacted = await head();

  expect((await admin('POST', '/api/show', { action: 'next' })).status).toBe(200);
  seqs.moved = await head();
  expect((await admin('POST', '/api/show', { action: 'stop' })).status).toBe(200);
  seqs.stopped = await head();

  for (const x of [100, 500, 900]) strokeIds.push((await guest('POST', '/api/mural/strokes', stroke(x))).body.id);
  seqs.threeStrokes = await head();
  expect((await guest('DELETE', `/api/mural/strokes/${strokeIds[1]}`)).status).toBe(200);
  seqs.twoStrokes = await head();
}, 120_000);
afterAll(() => t.close());

const showAt = async (seq: number) => (await auditor('GET', `/api/admin/show?at=${seq}`)).body;
const muralAt = async (seq: number) => (await auditor('GET', `/api/admin/mural?at=${seq}`)).body;

describe('GET /api/admin/show?at=SEQ (decision 044)', () => {
  it('answers the show as it stood right after that event: state, current item and reaction totals', async () => {
    expect(await showAt(seqs.empty)).toEqual({
      state: 'idle',
      current: null,
      index: 0,
      total: 0,
      items: [],
      at: seqs.empty,
    });

    const started = await showAt(seqs.started);
    expect(started).toMatchObject({ state: 'running', current: deck[0], index: 0, total: 3, at: seqs.started });
    expect(started.items.map((i: Ref & { title: string }) => ({ kind: i.kind, id: i.id }))).toEqual(deck);
    expect(started.items.map((i: { title: string }) => i.title).sort()).toEqual(['One', 'Three', 'Two']);
    expect(started.items.every((i: { reactions: object }) => Object.keys(i.reactions).length === 0)).toBe(true);

    const reacted = await showAt(seqs.reacted);
    expect(reacted).toMatchObject({ state: 'running', index: 0 });
    expect(reacted.items[0].reactions).toEqual({ '👏': 2, '❤️': 1 });

    const moved = await showAt(seqs.moved);
    expect(moved).toMatchObject({ state: 'running', current: deck[1], index: 1 });
    expect(moved.items[0].reactions).toEqual({ '👏': 2, '❤️': 1 });

    expect(await showAt(seqs.stopped)).toMatchObject({ state: 'idle', current: null, items: [] });
    // going back after going forward answers the same as the first time
    expect(await showAt(seqs.started)).toEqual(started);
  });
});

describe('GET /api/admin/mural?at=SEQ (decision 044)', () => {
  it('answers the mural as it stood: every stroke drawn by then, less those undone by then', async () => {
    const empty = await muralAt(seqs.empty);
    expect(empty).toMatchObject({ state: 'open', width: 1600, height: 800, strokes: [], at: seqs.empty });

    const three = await muralAt(seqs.threeStrokes);
    expect(three.strokes.map((s: { id: number }) => s.id)).toEqual(strokeIds);
    expect(three.strokes[0]).toMatchObject({ tool: 'brush', color: '#dc2626', size: 20, points: stroke(100).points });

    const two = await muralAt(seqs.twoStrokes);
    expect(two.strokes.map((s: { id: number }) => s.id)).toEqual([strokeIds[0], strokeIds[2]]);
    // and back again: the undone stroke is there before its undo
    expect((await muralAt(seqs.threeStrokes)).strokes).toHaveLength(3);
    expect((await muralAt(seqs.threeStrokes - 1)).strokes).toHaveLength(2);
  });

  it('is for admins and auditors only, and refuses a bad or missing seq', async () => {
    for (const path of ['/api/admin/show', '/api/admin/mural']) {
      expect((await guest('GET', `${path}?at=1`)).status).toBe(403);
      expect((await client(t.url)('GET', `${path}?at=1`)).status).toBe(401);
      expect((await admin('GET', `${path}?at=1`)).status).toBe(200);
      for (const bad of ['-1', 'x', '1.5']) {
        const res = await auditor('GET', `${path}?at=${bad}`);
        expect(res.status, `${path} at=${bad}`).toBe(400);
      }
      expect((await auditor('GET', path)).status).toBe(400);
      const past = await auditor('GET', `${path}?at=${(await head()) + 5}`);
      expect(past.status).toBe(400);
      expect(past.body.message).toContain('past the end of the log');
    }
  });
});
