import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { client, PASSWORDS, startTestServer, type TestServer } from '../../tests/support/server.ts';
import { PER_ADDRESS } from './limits.ts';

/**
 * CONTRACT §9: logging in again without a cookie makes a new visitor, so every per-visitor budget is
 * also held per address group, sized for an office of 300 behind one address (decision 063).
 */
let t: TestServer;
let admin: ReturnType<typeof client>;
let storyId: number;
beforeAll(async () => {
  t = await startTestServer({ TRUST_PROXY: 'loopback' });
  admin = client(t.url, await t.login('admin'));
  const author = client(t.url, await t.login('guest'));
  const story = await author('POST', '/api/stories', { content: 'For Alex', authorName: 'Kim', isAnonymous: true });
  await admin('PATCH', `/api/admin/stories/${story.body.id}`, { status: 'approved' });
  storyId = story.body.id as number;
});
afterAll(() => t.close());

let nextAddress = 1;
/** A fresh client address per test (the server trusts the loopback proxy's X-Forwarded-For). */
const freshAddress = () => `198.51.100.${nextAddress++}`;

/** A new visitor: a login without any cookie, from `address`; calls go out from that address. */
async function newVisitor(address: string) {
  const res = await fetch(`${t.url}/api/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-forwarded-for': address },
    body: JSON.stringify({ password: PASSWORDS.guest }),
  });
  expect(res.status).toBe(200);
  const { sessionToken } = (await res.json()) as { sessionToken: string };
  const api = client(t.url, sessionToken);
  return (method: string, url: string, body?: unknown) => api(method, url, body, { 'x-forwarded-for': address });
}

/**
 * The room behind `address` has already used all but `left` of a per-address budget in the window
 * now open: its counter as the limiter keeps it.
 */
async function roomHasUsed(name: keyof typeof PER_ADDRESS, address: string, left: number) {
  await t.db.pool.query(
    `INSERT INTO rate_limits (key, hits, reset_at) VALUES ($1, $2, now() + interval '1 minute')
     ON CONFLICT (key) DO UPDATE SET hits = EXCLUDED.hits, reset_at = EXCLUDED.reset_at`,
    [`${name}:addr:${address}`, PER_ADDRESS[name].limit - left],
  );
}

const story = (content: string) => ({ content, authorName: 'Kim', isAnonymous: true });

describe('minting visitors from one address', () => {
  it('does not raise the submissions budget past 600 an hour: the office is full, another address is not', async () => {
    const office = freshAddress();
    // 20 visitors, each sending its own 30, together fill the address's 600
    const visitors = await Promise.all(Array.from({ length: 20 }, () => newVisitor(office)));
    await Promise.all(
      visitors.map(async (send, v) => {
        for (let i = 0; i < 30; i++) expect((await send('POST', '/api/stories', story(`s${v}-${i}`))).status).toBe(201);
      }),
    );
    const minted = await newVisitor(office);
    const refused = await minted('POST', '/api/stories', story('One visitor too many'));
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    expect((await t.db.pool.query(`SELECT 1 FROM catalog_items WHERE content = 'One visitor too many'`)).rows).toEqual(
      [],
    );
    expect((await (await newVisitor(freshAddress()))('POST', '/api/stories', story('Next door'))).status).toBe(201);
  });

  it('holds likes at 1,200 a minute per address, whatever the visitors', async () => {
    const office = freshAddress();
    await roomHasUsed('likes', office, 2);
    for (let i = 0; i < 2; i++) {
      expect((await (await newVisitor(office))('POST', `/api/stories/${storyId}/likes`)).status).toBe(200);
    }
    const refused = await (await newVisitor(office))('POST', `/api/stories/${storyId}/likes`);
    expect(refused.status).toBe(429);
    expect(refused.headers.get('retry-after')).toBeTruthy();
    expect((await (await newVisitor(freshAddress()))('POST', `/api/stories/${storyId}/likes`)).status).toBe(200);
  });

  it('holds comments, reactions and mural strokes per address too', async () => {
    const office = freshAddress();
    const calls = [
      ['comments', 'POST', `/api/stories/${storyId}/comments`, { authorName: 'Kim', content: 'Hello' }, 201],
      ['reactions', 'POST', `/api/stories/${storyId}/reactions`, { emoji: '👏' }, 202],
      [
        'muralStrokes',
        'POST',
        '/api/mural/strokes',
        {
          tool: 'brush',
          color: '#dc2626',
          size: 20,
          opacity: 100,
          points: [
            [10, 10],
            [40, 40],
          ],
        },
        201,
      ],
    ] as const;
    for (const [name, method, url, body, ok] of calls) {
      await roomHasUsed(name, office, 1);
      expect((await (await newVisitor(office))(method, url, body)).status, name).toBe(ok);
      const refused = await (await newVisitor(office))(method, url, body);
      expect(refused.status, name).toBe(429);
      expect((await (await newVisitor(freshAddress()))(method, url, body)).status, name).toBe(ok);
    }
  });
});

describe('the mural’s points from one address', () => {
  /** A stroke of `n` points inside the canvas. */
  const stroke = (n: number) => ({
    tool: 'brush',
    color: '#7c3aed',
    size: 3,
    opacity: 100,
    points: Array.from({ length: n }, (_, i) => [i % 1600, (i * 7) % 800]),
  });
  const strokes = async () =>
    (await t.db.pool.query<{ n: number }>(`SELECT count(*)::int AS n FROM events WHERE type = 'MuralStrokeDrawn'`))
      .rows[0]!.n;

  it('holds them at 100,000 in 10 s, whatever the visitors: 429, nothing kept, another address draws', async () => {
    const office = freshAddress();
    // minted visitors, each under its own 5,000, have drawn all but 3,000 of the office's points
    await t.db.pool.query(
      `INSERT INTO rate_limits (key, hits, reset_at) VALUES ($1, $2, now() + interval '1 minute')`,
      [`mural-points:addr:${office}`, PER_ADDRESS.muralPoints.limit - 3000],
    );
    expect((await (await newVisitor(office))('POST', '/api/mural/strokes', stroke(2000))).status).toBe(201);
    const before = await strokes();
    const minted = await newVisitor(office);
    const refused = await minted('POST', '/api/mural/strokes', stroke(2000));
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(Number(refused.headers.get('retry-after'))).toBeLessThanOrEqual(10);
    expect(await strokes()).toBe(before);
    // the refused stroke took nothing: what is left still fits, and then nothing does
    expect((await minted('POST', '/api/mural/strokes', stroke(1000))).status).toBe(201);
    expect((await (await newVisitor(office))('POST', '/api/mural/strokes', stroke(1))).status).toBe(429);
    expect((await (await newVisitor(freshAddress()))('POST', '/api/mural/strokes', stroke(2000))).status).toBe(201);
  });
});

describe('views and likes', () => {
  const addressRows = async () =>
    (await t.db.pool.query<{ n: number }>(`SELECT count(*)::int AS n FROM personal_data WHERE kind = 'ip'`)).rows[0]!.n;

  it('counts 50 calls of one visitor on one item once, with one address row, not 50', async () => {
    const view = await newVisitor(freshAddress());
    const before = await addressRows();
    const answers = [];
    for (let i = 0; i < 50; i++) answers.push(await view('POST', `/api/stories/${storyId}/views`));
    expect(answers.map((a) => a.status)).toEqual(Array(50).fill(200));
    expect(new Set(answers.map((a) => a.body.viewCount)).size).toBe(1);
    expect((await addressRows()) - before).toBe(1);
    const { rows } = await t.db.pool.query(
      `SELECT 1 FROM events WHERE type = 'ItemViewed' AND (data->>'itemId')::int = $1`,
      [storyId],
    );
    expect(rows.length).toBe(answers[0]!.body.viewCount);
  });

  it('takes no address row for a like that changes nothing', async () => {
    const like = await newVisitor(freshAddress());
    const before = await addressRows();
    const answers = [];
    for (let i = 0; i < 20; i++) answers.push(await like('POST', `/api/stories/${storyId}/likes`));
    expect(answers.map((a) => [a.status, a.body.liked])).toEqual(Array(20).fill([200, true]));
    expect(new Set(answers.map((a) => a.body.likeCount)).size).toBe(1);
    expect((await addressRows()) - before).toBe(1);
    expect((await like('DELETE', `/api/stories/${storyId}/likes`)).body.liked).toBe(false);
    expect((await like('DELETE', `/api/stories/${storyId}/likes`)).body.liked).toBe(false);
    expect((await addressRows()) - before).toBe(2);
  });

  it('bounds one visitor at 60 calls a minute and an address at 3,000', async () => {
    const office = freshAddress();
    const view = await newVisitor(office);
    for (let i = 0; i < 60; i++) expect((await view('POST', `/api/stories/${storyId}/views`)).status).toBe(200);
    expect((await view('POST', `/api/stories/${storyId}/views`)).status).toBe(429);

    await roomHasUsed('views', office, 1);
    expect((await (await newVisitor(office))('POST', `/api/stories/${storyId}/views`)).status).toBe(200);
    expect((await (await newVisitor(office))('POST', `/api/stories/${storyId}/views`)).status).toBe(429);
    expect((await (await newVisitor(freshAddress()))('POST', `/api/stories/${storyId}/views`)).status).toBe(200);
  });
});
