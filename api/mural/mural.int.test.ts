import sharp from 'sharp';
import { io as connect, type Socket } from 'socket.io-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { client, startTestServer, type TestServer } from '../../tests/support/server.ts';
import { waitFor } from '../../tests/support/wait.ts';
import { paintMuralPng } from '../canvas/painterThread.ts';

let t: TestServer;
let ann: ReturnType<typeof client>;
let bob: ReturnType<typeof client>;
let admin: ReturnType<typeof client>;
const sockets: Socket[] = [];

beforeAll(async () => {
  t = await startTestServer();
  ann = client(t.url, await t.login('guest'));
  bob = client(t.url, await t.login('guest'));
  admin = client(t.url, await t.login('admin'));
});
afterAll(async () => {
  for (const s of sockets) s.close();
  await t.close();
});

const stroke = (over: Record<string, unknown> = {}) => ({
  tool: 'brush',
  color: '#dc2626',
  size: 20,
  opacity: 100,
  points: [
    [100, 100],
    [300, 100],
    [500, 120],
  ],
  ...over,
});

const eventCount = async () => (await t.db.pool.query(`SELECT count(*)::int AS n FROM events`)).rows[0].n as number;
/** The mural's events: the frozen picture's rendition job appends to the artwork's stream whenever it runs. */
const muralEventCount = async () =>
  (await t.db.pool.query(`SELECT count(*)::int AS n FROM events WHERE stream_id = 'mural' OR stream_id LIKE 'mural-%'`))
    .rows[0].n as number;
const mural = async () => (await ann('GET', '/api/mural')).body;
/** Until the catalog has the stroke (or, with `gone`, no longer has it). */
const untilShown = (id: number, gone = false) =>
  waitFor(async () => (await mural()).strokes.some((s: { id: number }) => s.id === id) !== gone && mural());

function open(auth: Record<string, unknown>): Promise<Socket> {
  const socket = connect(t.url, { auth, transports: ['websocket'], reconnection: false });
  sockets.push(socket);
  return new Promise((resolve, reject) => {
    socket.once('connect', () => resolve(socket));
    socket.once('connect_error', reject);
  });
}

describe('the mural (CONTRACT §8)', () => {
  it('starts open and empty, 1600 × 800, with a position', async () => {
    const res = await ann('GET', '/api/mural');
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ state: 'open', width: 1600, height: 800, strokes: [], artworkId: null });
    expect(typeof res.body.position).toBe('number');
    expect(typeof res.body.authorId).toBe('string');
  });

  it('takes a stroke: 201 with the stroke and its author, then everyone reads it in order', async () => {
    const me = (await ann('GET', '/api/mural')).body.authorId;
    const first = await ann('POST', '/api/mural/strokes', stroke());
    expect(first.status).toBe(201);
    expect(first.body).toMatchObject({ ...stroke(), authorId: me });
    expect(first.body.id).toBeGreaterThan(0);
    const second = await bob('POST', '/api/mural/strokes', stroke({ tool: 'eraser', color: '#000000', size: 50 }));
    expect(second.status).toBe(201);
    const shown = await untilShown(second.body.id);
    const ids = shown.strokes.map((s: { id: number }) => s.id);
    expect(ids.indexOf(first.body.id)).toBeLessThan(ids.indexOf(second.body.id));
    const [a, b] = shown.strokes.slice(-2);
    expect(a.position).toBeLessThan(b.position);
    expect(b.position).toBeLessThanOrEqual(shown.position);
  });

  it('refuses bad strokes with 400 and writes nothing', async () => {
    const before = await eventCount();
    const many = Array.from({ length: 2001 }, (_, i) => [i % 1600, 400]);
    const cases: Array<[Record<string, unknown>, string]> = [
      [stroke({ points: [[1601, 10]] }), 'Points must be inside the canvas'],
      [stroke({ points: [[10, -1]] }), 'Points must be inside the canvas'],
      [stroke({ points: [[10, 801]] }), 'Points must be inside the canvas'],
      [stroke({ points: many }), 'A stroke has at most 2000 points'],
      [stroke({ points: [] }), 'A stroke needs at least one point'],
      [stroke({ points: 'abc' }), 'Points must be a list of [x, y] pairs'],
      [stroke({ points: [[1, 2, 3]] }), 'Points must be [x, y] pairs'],
      [stroke({ points: [['1', 2]] }), 'Point x must be a number'],
      [stroke({ size: 'big' }), 'Size must be a number'],
      [stroke({ size: 0 }), 'Size must be from 1 to 50'],
      [stroke({ size: 51 }), 'Size must be from 1 to 50'],
      [stroke({ opacity: 101 }), 'Opacity must be from 1 to 100'],
      [stroke({ tool: 'spray' }), 'Tool must be brush or eraser'],
      [stroke({ color: 'red' }), 'Colour must be a hex colour like #1c1917'],
      [stroke({ color: 7 }), 'Colour must be a hex colour like #1c1917'],
    ];
    for (const [body, message] of cases) {
      const res = await ann('POST', '/api/mural/strokes', body);
      expect({ status: res.status, message: res.body.message }).toEqual({ status: 400, message });
    }
    expect((await ann('POST', '/api/mural/strokes', '[1, 2]')).status).toBe(400);
    expect(await eventCount()).toBe(before);
  });

  it('takes exactly 2,000 points, and points on the edges', async () => {
    const points = Array.from({ length: 2000 }, (_, i) => [(i * 0.8) % 1600, i % 2 ? 0 : 800]);
    expect((await bob('POST', '/api/mural/strokes', stroke({ points, size: 1 }))).status).toBe(201);
  });

  it("undo: one's own stroke, or any for an admin; someone else's is 403", async () => {
    const mine = (await ann('POST', '/api/mural/strokes', stroke({ color: '#2563eb' }))).body.id;
    const before = await eventCount();
    expect(await bob('DELETE', `/api/mural/strokes/${mine}`)).toMatchObject({ status: 403 });
    expect(await eventCount()).toBe(before);
    expect(await ann('DELETE', `/api/mural/strokes/${mine}`)).toMatchObject({ status: 200, body: { id: mine } });
    await untilShown(mine, true);
    expect((await ann('DELETE', `/api/mural/strokes/${mine}`)).status).toBe(404);
    expect((await ann('DELETE', `/api/mural/strokes/999999`)).status).toBe(404);
    expect((await ann('DELETE', `/api/mural/strokes/abc`)).status).toBe(404);
    const bobs = (await bob('POST', '/api/mural/strokes', stroke())).body.id;
    expect((await admin('DELETE', `/api/mural/strokes/${bobs}`)).status).toBe(200);
  });

  it('more than 10 strokes a second from one visitor: 429', async () => {
    const eager = client(t.url, await t.login('guest'));
    const answers = await Promise.all(
      Array.from({ length: 13 }, () => eager('POST', '/api/mural/strokes', stroke({ size: 2 }))),
    );
    const statuses = answers.map((a) => a.status).sort();
    expect(statuses.filter((s) => s === 201).length).toBeLessThanOrEqual(10);
    expect(statuses.filter((s) => s === 429).length).toBeGreaterThanOrEqual(3);
    // another visitor is not held back by it
    expect((await bob('POST', '/api/mural/strokes', stroke({ size: 2 }))).status).toBe(201);
  });

  it('lock and unlock: admins only; 409 for strokes and undo while locked; live mural:state', async () => {
    const mine = (await ann('POST', '/api/mural/strokes', stroke())).body.id;
    expect((await ann('POST', '/api/mural/lock')).status).toBe(403);
    const socket = await open({ token: await t.login('guest'), mural: true });
    const states: Array<{ state: string; position: number; after: number }> = [];
    socket.on('mural:state', (p) => states.push(p));
    const locked = await admin('POST', '/api/mural/lock');
    expect(locked).toMatchObject({ status: 200, body: { state: 'locked' } });
    expect((await admin('POST', '/api/mural/lock')).body.state).toBe('locked');
    const before = await eventCount();
    expect(await ann('POST', '/api/mural/strokes', stroke())).toMatchObject({
      status: 409,
      body: { message: 'The mural is locked', state: 'locked' },
    });
    expect((await ann('DELETE', `/api/mural/strokes/${mine}`)).status).toBe(409);
    expect(await eventCount()).toBe(before);
    expect((await ann('GET', '/api/mural')).body.state).toBe('locked');
    expect((await admin('POST', '/api/mural/unlock')).body.state).toBe('open');
    expect((await ann('POST', '/api/mural/strokes', stroke())).status).toBe(201);
    await waitFor(async () => states.length >= 2);
    expect(states.map((s) => s.state)).toEqual(['locked', 'open']);
    expect(states[1]!.position).toBeGreaterThan(states[0]!.position);
  });

  it('sends finished strokes live, and a late joiner gets the mural then only what is newer', async () => {
    const live = await open({ token: await t.login('guest'), mural: true });
    const added: Array<{ position: number; after: number; stroke: { id: number } }> = [];
    const removed: Array<{ position: number; id: number }> = [];
    live.on('mural:stroke-added', (p) => added.push(p));
    live.on('mural:stroke-removed', (p) => removed.push(p));
    const one = (await ann('POST', '/api/mural/strokes', stroke({ color: '#16a34a' }))).body;
    await waitFor(async () => added.some((a) => a.stroke.id === one.id));
    const msg = added.find((a) => a.stroke.id === one.id)!;
    expect(msg.stroke).toMatchObject({ ...stroke({ color: '#16a34a' }), id: one.id, authorId: one.authorId });
    expect(msg.after).toBeLessThan(msg.position);

    // a late joiner: the snapshot, then a socket from its position hears only the newer strokes
    const snapshot = (await bob('GET', '/api/mural')).body;
    expect(snapshot.strokes.some((s: { id: number }) => s.id === one.id)).toBe(true);
    const late = await open({ token: await t.login('guest'), since: snapshot.position, mural: true });
    const heard: number[] = [];
    late.on('mural:stroke-added', (p) => heard.push(p.stroke.id));
    const two = (await bob('POST', '/api/mural/strokes', stroke({ color: '#7c3aed' }))).body;
    await ann('DELETE', `/api/mural/strokes/${one.id}`);
    await waitFor(async () => removed.some((r) => r.id === one.id));
    await waitFor(async () => heard.includes(two.id));
    expect(heard).toEqual([two.id]);
  });

  it('freeze: an admin turns the mural into a pending artwork whose pixels are the mural; then it is frozen', async () => {
    expect((await ann('POST', '/api/mural/freeze')).status).toBe(403);
    const last = (await ann('POST', '/api/mural/strokes', stroke({ color: '#1c1917', points: [[800, 400]], size: 40 })))
      .body.id;
    await untilShown(last);
    const frozen = await admin('POST', '/api/mural/freeze');
    expect(frozen).toMatchObject({ status: 201, body: { state: 'frozen', status: 'pending' } });
    const { artworkId } = frozen.body;
    const art = await admin('GET', `/api/artworks/${artworkId}`);
    expect(art.body).toMatchObject({ status: 'pending', isFromCanvas: 'true', artistName: 'Everyone' });
    const queue = (await admin('GET', '/api/admin/queue')).body;
    expect(queue.pending.artworks).toBeGreaterThanOrEqual(1);

    const after = (await ann('GET', '/api/mural')).body;
    expect(after).toMatchObject({ state: 'frozen', artworkId });
    const res = await fetch(`${t.url}/api/artworks/${artworkId}/image/original`, {
      headers: { 'x-session-token': await t.login('admin') },
    });
    const image = await sharp(Buffer.from(await res.arrayBuffer()))
      .removeAlpha()
      .raw()
      .toBuffer({ resolveWithObject: true });
    expect(image.info).toMatchObject({ width: 1600, height: 800 });
    const expected = await sharp(paintMuralPng(after.strokes)).removeAlpha().raw().toBuffer();
    expect(image.data.equals(expected)).toBe(true);
    // painted where the last dot is, paper where nobody drew
    const px = (x: number, y: number) => [...image.data.subarray((y * 1600 + x) * 3, (y * 1600 + x) * 3 + 3)];
    expect(px(800, 400)).toEqual([0x1c, 0x19, 0x17]);
    expect(px(1500, 700)).toEqual([255, 255, 255]);

    const before = await muralEventCount();
    expect((await ann('POST', '/api/mural/strokes', stroke())).status).toBe(409);
    expect((await admin('POST', '/api/mural/unlock')).status).toBe(409);
    expect((await admin('POST', '/api/mural/freeze')).status).toBe(409);
    expect((await admin('DELETE', `/api/mural/strokes/${last}`)).status).toBe(409);
    expect(await muralEventCount()).toBe(before);
    expect(before).toBeGreaterThan(0);
  });
});
