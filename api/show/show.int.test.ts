import { io as connect, type Socket } from 'socket.io-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { client, startTestServer, type TestServer } from '../../tests/support/server.ts';
import { rebuild } from '#projections/maintenance.ts';
import { catalogProjection } from '#projections/catalog/catalogProjection.ts';
import { FLUSH_MS } from './reactions.ts';

let t: TestServer;
let guest: ReturnType<typeof client>;
let admin: ReturnType<typeof client>;
let auditor: ReturnType<typeof client>;
let guestToken: string;
const ids: number[] = [];
const sockets: Socket[] = [];

async function approvedStory(title: string) {
  const created = await guest('POST', '/api/stories', {
    title,
    content: `A story called ${title}.`,
    authorName: 'Priya Shah',
    email: 'priya@example.com',
  });
  expect(created.status).toBe(201);
  expect((await admin('PATCH', `/api/admin/stories/${created.body.id}`, { status: 'approved' })).status).toBe(200);
  return created.body.id as number;
}

beforeAll(async () => {
  t = await startTestServer();
  guestToken = await t.login('guest');
  guest = client(t.url, guestToken);
  admin = client(t.url, await t.login('admin'));
  auditor = client(t.url, await t.login('auditor'));
  for (const title of ['One', 'Two', 'Three']) ids.push(await approvedStory(title));
});
afterAll(async () => {
  for (const s of sockets) s.close();
  await t.close();
});

const act = (body: Record<string, unknown>) => admin('POST', '/api/show', body);

async function follower(): Promise<Socket> {
  const socket = connect(t.url, { auth: { token: guestToken }, transports: ['websocket'], reconnection: false });
  sockets.push(socket);
  await new Promise<void>((resolve, reject) => {
    socket.once('sync:batch', () => resolve());
    socket.once('connect_error', reject);
  });
  return socket;
}

/**
 * The first `event` on the socket that `matches`. A write's answer can come back before the live
 * message of the write just before it, so a test waits for the message it expects, not the next one.
 */
const next = <T>(socket: Socket, event: string, matches: (payload: T) => boolean = () => true, timeoutMs = 3000) =>
  new Promise<T>((resolve, reject) => {
    const timer = setTimeout(() => {
      socket.off(event, listener);
      reject(new Error(`no matching ${event} within ${timeoutMs} ms`));
    }, timeoutMs);
    const listener = (payload: T) => {
      if (!matches(payload)) return;
      clearTimeout(timer);
      socket.off(event, listener);
      resolve(payload);
    };
    socket.on(event, listener);
  });

async function showEvents() {
  const { rows } = await t.db.pool.query<{ type: string; data: Record<string, unknown> }>(
    `SELECT type, data FROM events WHERE stream_id = 'show' ORDER BY position`,
  );
  return rows;
}

describe('the show (CONTRACT §7)', () => {
  it('is idle until the admin starts it, and only the admin drives it', async () => {
    expect(await guest('GET', '/api/show')).toMatchObject({
      status: 200,
      body: { state: 'idle', current: null, index: 0, upNext: [], position: expect.any(Number) },
    });
    expect(await guest('POST', '/api/show', { action: 'start' })).toMatchObject({
      status: 403,
      body: { message: 'Admin access required' },
    });
    expect((await auditor('POST', '/api/show', { action: 'start' })).status).toBe(403);
    expect((await client(t.url)('POST', '/api/show', { action: 'start' })).status).toBe(401);
    expect(await showEvents()).toEqual([]);
  });

  it('answers 409 to every action but start while no show runs, and 400 to a bad one', async () => {
    for (const action of ['next', 'prev', 'pause', 'resume', 'stop']) {
      expect(await act({ action })).toMatchObject({ status: 409, body: { message: 'The show is not running' } });
    }
    for (const action of ['goto', 'queue']) {
      expect(await act({ action, kind: 'story', id: ids[0] })).toMatchObject({ status: 409 });
    }
    expect((await act({ action: 'dance' })).status).toBe(400);
    expect((await act({ action: 'goto', kind: 'poem', id: 1 })).status).toBe(400);
    expect((await act({ action: 'goto', kind: 'story' })).status).toBe(400);
    expect(await showEvents()).toEqual([]);
  });

  it('starts, moves, pauses, resumes, goes to, queues and stops, each an event, live to every follower', async () => {
    const a = await follower();
    const b = await follower();
    const seen: unknown[] = [];
    a.on('show:changed', (p) => seen.push(p));

    const started = next<Record<string, unknown>>(b, 'show:changed');
    const start = await act({ action: 'start' });
    expect(start.status).toBe(200);
    const deck = [start.body.current, ...start.body.upNext] as Array<{ kind: string; id: number }>;
    expect(deck.map((i) => i.id).sort()).toEqual([...ids].sort());
    expect(start.body).toMatchObject({ state: 'running', index: 0, total: 3 });
    expect(await started).toMatchObject({ state: 'running', current: deck[0], index: 0, total: 3 });
    expect((await act({ action: 'start' })).status).toBe(409);

    const moved = next<Record<string, unknown>>(b, 'show:changed', (p) => p.index === 1);
    expect((await act({ action: 'next' })).body).toMatchObject({ current: deck[1], index: 1 });
    expect(await moved).toMatchObject({ current: deck[1], index: 1, state: 'running' });
    // a follower that joins now reads where the show stands, with the position to follow on from
    const late = await guest('GET', '/api/show');
    expect(late.body).toMatchObject({ state: 'running', current: deck[1], index: 1, upNext: [deck[2]] });
    expect(late.body.position).toBeGreaterThanOrEqual(((await moved) as { position: number }).position);

    expect((await act({ action: 'prev' })).body).toMatchObject({ current: deck[0], index: 0 });
    // previous on the first item changes nothing and writes nothing
    const before = (await showEvents()).length;
    expect((await act({ action: 'prev' })).body).toMatchObject({ index: 0 });
    expect((await showEvents()).length).toBe(before);

    expect((await act({ action: 'pause' })).body).toMatchObject({ state: 'paused', index: 0 });
    expect((await act({ action: 'pause' })).body).toMatchObject({ state: 'paused' });
    expect((await act({ action: 'resume' })).body).toMatchObject({ state: 'running' });

    expect((await act({ action: 'goto', kind: deck[2]!.kind, id: deck[2]!.id })).body).toMatchObject({
      current: deck[2],
      index: 2,
      upNext: [],
    });
    // next on the last item stays there
    expect((await act({ action: 'next' })).body).toMatchObject({ index: 2 });

    // an item approved during the meeting is put next, and go to can add one and show it
    const late1 = await approvedStory('Arrived late');
    expect((await act({ action: 'queue', kind: 'story', id: late1 })).body).toMatchObject({
      index: 2,
      total: 4,
      upNext: [{ kind: 'story', id: late1 }],
    });
    const late2 = await approvedStory('Arrived later');
    expect((await act({ action: 'goto', kind: 'story', id: late2 })).body).toMatchObject({
      current: { kind: 'story', id: late2 },
      index: 3,
      total: 5,
      upNext: [{ kind: 'story', id: late1 }],
    });

    const stopped = next<Record<string, unknown>>(b, 'show:changed', (p) => p.state === 'idle');
    expect((await act({ action: 'stop' })).body).toMatchObject({ state: 'idle', current: null });
    expect(await stopped).toMatchObject({ state: 'idle', current: null });
    expect((await act({ action: 'next' })).status).toBe(409);

    expect((await showEvents()).map((e) => e.type)).toEqual([
      'ShowStarted',
      'ShowMoved',
      'ShowMoved',
      'ShowPaused',
      'ShowResumed',
      'ShowMoved',
      'ShowItemQueued',
      'ShowItemQueued',
      'ShowMoved',
      'ShowStopped',
    ]);
    // every follower saw every change, in order, each one step after the last
    await new Promise((r) => setTimeout(r, 200));
    const positions = (seen as Array<{ position: number }>).map((p) => p.position);
    expect(positions).toEqual([...positions].sort((x, y) => x - y));
    expect(seen.length).toBe(9); // the two events of one go-to are one change
  });

  it('answers 404 for an unknown or unapproved item, and the show is unchanged', async () => {
    await act({ action: 'start' });
    const pending = await guest('POST', '/api/stories', { content: 'Not yet', authorName: 'Sam Lee', email: 'a@b.co' });
    for (const action of ['goto', 'queue']) {
      expect(await act({ action, kind: 'story', id: 999999 })).toMatchObject({
        status: 404,
        body: { message: 'Story not found' },
      });
      expect((await act({ action, kind: 'artwork', id: ids[0] })).status).toBe(404);
      expect((await act({ action, kind: 'story', id: pending.body.id })).status).toBe(404);
    }
    expect((await guest('GET', '/api/show')).body).toMatchObject({ state: 'running', index: 0 });
    await act({ action: 'stop' });
  });

  it('the fold is the same after a rebuild from the log', async () => {
    await act({ action: 'start' });
    await act({ action: 'next' });
    const live = (await guest('GET', '/api/show')).body;
    await t.db.pool.query(`DELETE FROM catalog_show`);
    const { rows } = await t.db.pool.query(`SELECT count(*)::int AS n FROM catalog_show`);
    expect(rows[0].n).toBe(0);
    await rebuild(t.server.deps.store, catalogProjection);
    const rebuilt = (await guest('GET', '/api/show')).body;
    expect({ ...rebuilt, position: 0 }).toEqual({ ...live, position: 0 });
    await act({ action: 'stop' });
  });
});

describe('the mural on the show (decision 046)', () => {
  const mural = { kind: 'mural', id: 1 };

  it('is refused to guests and auditors, 409 with no show, and 404 for another mural', async () => {
    const before = (await showEvents()).length;
    for (const who of [guest, auditor]) {
      expect((await who('POST', '/api/show', { action: 'goto', kind: 'mural' })).status).toBe(403);
    }
    expect(await act({ action: 'goto', kind: 'mural' })).toMatchObject({
      status: 409,
      body: { message: 'The show is not running' },
    });
    expect((await act({ action: 'queue', ...mural })).status).toBe(409);
    await act({ action: 'start' });
    expect(await act({ action: 'goto', kind: 'mural', id: 2 })).toMatchObject({
      status: 404,
      body: { message: 'Mural not found' },
    });
    expect((await showEvents()).length).toBe(before + 1);
    await act({ action: 'stop' });
  });

  it('is put up after the current item, live to followers, and next moves on to what was next', async () => {
    const socket = await follower();
    const start = (await act({ action: 'start' })).body;
    const changed = next<{ current: { kind: string } | null }>(
      socket,
      'show:changed',
      (p) => p.current?.kind === 'mural',
    );
    expect(await act({ action: 'goto', kind: 'mural' })).toMatchObject({
      status: 200,
      body: { state: 'running', current: mural, index: 1, total: start.total + 1, upNext: start.upNext },
    });
    expect(await changed).toMatchObject({ state: 'running', current: mural, index: 1 });
    expect((await showEvents()).slice(-2)).toMatchObject([
      { type: 'ShowItemQueued', data: { item: mural } },
      { type: 'ShowMoved', data: { action: 'goto', index: 1, current: mural } },
    ]);
    // showing it while it shows writes nothing
    const before = (await showEvents()).length;
    expect((await act({ action: 'goto', ...mural })).body).toMatchObject({ current: mural, index: 1 });
    expect((await showEvents()).length).toBe(before);
    expect((await act({ action: 'next' })).body).toMatchObject({ current: start.upNext[0], index: 2 });
    expect((await act({ action: 'prev' })).body).toMatchObject({ current: mural, index: 1 });
    await act({ action: 'stop' });
  });
});

describe('reactions (CONTRACT §7)', () => {
  it('accepts the six emoji on a visible item, keeps totals, and sends coalesced bursts', async () => {
    const socket = await follower();
    const bursts: Array<{ kind: string; id: number; counts: Record<string, number>; totals: Record<string, number> }> =
      [];
    socket.on('reactions:burst', (p) => bursts.push(p));
    const url = `/api/stories/${ids[0]}/reactions`;
    const taps = ['👏', '👏', '❤️', '🎉', '🙏'];
    const answers = await Promise.all(taps.map((emoji) => guest('POST', url, { emoji })));
    expect(answers.map((a) => a.status)).toEqual([202, 202, 202, 202, 202]);
    await new Promise((r) => setTimeout(r, FLUSH_MS * 3));
    const total = (counts: Record<string, number>) => Object.values(counts).reduce((a, b) => a + b, 0);
    expect(bursts.length).toBeGreaterThan(0);
    expect(bursts.length).toBeLessThanOrEqual(2);
    expect(bursts.reduce((n, b) => n + total(b.counts), 0)).toBe(5);
    expect(bursts.at(-1)!.totals).toEqual({ '👏': 2, '❤️': 1, '🎉': 1, '🙏': 1 });
    expect((await guest('GET', `/api/stories/${ids[0]}`)).body.reactions).toEqual({
      '👏': 2,
      '❤️': 1,
      '🎉': 1,
      '🙏': 1,
    });
    // the totals are events in the log: fewer events than taps
    const { rows } = await t.db.pool.query(`SELECT data FROM events WHERE type = 'ReactionsCounted'`);
    expect(rows.length).toBeLessThanOrEqual(2);
  });

  it('refuses a bad emoji (400) and an unknown or hidden item (404)', async () => {
    const guest = client(t.url, await t.login('guest'));
    expect(await guest('POST', `/api/stories/${ids[1]}/reactions`, { emoji: '💩' })).toMatchObject({
      status: 400,
      body: { message: expect.stringContaining('Reaction must be one of') },
    });
    expect((await guest('POST', `/api/stories/${ids[1]}/reactions`, {})).status).toBe(400);
    expect(await guest('POST', '/api/stories/999999/reactions', { emoji: '👏' })).toMatchObject({
      status: 404,
      body: { message: 'Story not found' },
    });
    expect((await guest('POST', '/api/artworks/999999/reactions', { emoji: '👏' })).status).toBe(404);
    expect((await guest('POST', '/api/media/999999/reactions', { emoji: '👏' })).status).toBe(404);
    await new Promise((r) => setTimeout(r, 1100)); // every tap counts toward the limit, refused or not
    const pending = await guest('POST', '/api/stories', { content: 'Hidden', authorName: 'Sam Lee', email: 'a@b.co' });
    expect((await guest('POST', `/api/stories/${pending.body.id}/reactions`, { emoji: '👏' })).status).toBe(404);
    expect((await auditor('POST', `/api/stories/${ids[1]}/reactions`, { emoji: '👏' })).status).toBe(403);
  });

  it('answers 429 to more than 5 a second from one visitor, not to another visitor', async () => {
    // a second apart from earlier taps
    await new Promise((r) => setTimeout(r, 1100));
    const url = `/api/stories/${ids[2]}/reactions`;
    const statuses: number[] = [];
    for (let i = 0; i < 7; i++) statuses.push((await guest('POST', url, { emoji: '😂' })).status);
    expect(statuses.slice(0, 5)).toEqual([202, 202, 202, 202, 202]);
    expect(statuses.slice(5)).toEqual([429, 429]);
    const other = client(t.url, await t.login('guest'));
    expect((await other('POST', url, { emoji: '😂' })).status).toBe(202);
    // the window is a second: the stuck finger may tap again after it
    await new Promise((r) => setTimeout(r, 1100));
    expect((await guest('POST', url, { emoji: '😂' })).status).toBe(202);
    await new Promise((r) => setTimeout(r, FLUSH_MS * 3));
    expect((await guest('GET', `/api/stories/${ids[2]}`)).body.reactions).toEqual({ '😂': 7 });
  });
});
