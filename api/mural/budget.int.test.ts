import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { handleCommand } from '#events/handle.ts';
import { muralStrokeStream, strokeDecider } from '#events/mural/mural.ts';
import {
  client,
  startSecondProcess,
  startTestServer,
  type SecondProcess,
  type TestServer,
} from '../../tests/support/server.ts';
import { waitFor } from '../../tests/support/wait.ts';

/** CONTRACT §9: the mural has a budget, and a freeze never holds other requests. */
let t: TestServer;
let second: SecondProcess;

beforeAll(async () => {
  t = await startTestServer();
  second = await startSecondProcess(t);
});
afterAll(async () => {
  await second?.close();
  await t.close();
});

/** A stroke of `n` points inside the canvas. */
const stroke = (n: number) => ({
  tool: 'brush',
  color: '#7c3aed',
  size: 3,
  opacity: 100,
  points: Array.from({ length: n }, (_, i) => [i % 1600, (i * 7) % 800]),
});

describe('the mural’s budget (CONTRACT §9)', () => {
  it('takes at most 5,000 points from one visitor in 10 s, counted across processes: 429 with Retry-After', async () => {
    const token = await t.login('guest');
    const here = client(t.url, token);
    const there = client(second.url, token);
    expect((await here('POST', '/api/mural/strokes', stroke(2000))).status).toBe(201);
    expect((await there('POST', '/api/mural/strokes', stroke(2000))).status).toBe(201);
    const over = await here('POST', '/api/mural/strokes', stroke(1001));
    expect(over.status).toBe(429);
    expect(Number(over.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(Number(over.headers.get('retry-after'))).toBeLessThanOrEqual(10);
    const overThere = await there('POST', '/api/mural/strokes', stroke(1001));
    expect(overThere.status).toBe(429);
    // what is left of the 5,000 still fits, and another visitor is not held back
    expect((await there('POST', '/api/mural/strokes', stroke(1000))).status).toBe(201);
    expect((await here('POST', '/api/mural/strokes', stroke(1))).status).toBe(429);
    expect((await client(t.url, await t.login('guest'))('POST', '/api/mural/strokes', stroke(2000))).status).toBe(201);
  });

  it('holds at most 500,000 points: 409 The mural is full, and an undo makes room again', async () => {
    const ann = client(t.url, await t.login('guest'));
    const { rows } = await t.db.pool.query<{ points: string }>(`SELECT points FROM mural_budget`);
    // the mural as if others had drawn it nearly full
    await t.db.pool.query(`UPDATE mural_budget SET points = $1`, [500_000 - 1500]);
    const events = async () => (await t.db.pool.query(`SELECT count(*)::int AS n FROM events`)).rows[0].n as number;
    const before = await events();
    expect(await ann('POST', '/api/mural/strokes', stroke(1501))).toMatchObject({
      status: 409,
      body: { message: 'The mural is full' },
    });
    expect(await events()).toBe(before);
    const fits = await ann('POST', '/api/mural/strokes', stroke(1500));
    expect(fits.status).toBe(201);
    expect((await ann('POST', '/api/mural/strokes', stroke(1))).status).toBe(409);
    expect((await ann('DELETE', `/api/mural/strokes/${fits.body.id}`)).status).toBe(200);
    expect((await ann('POST', '/api/mural/strokes', stroke(1))).status).toBe(201);
    await t.db.pool.query(`UPDATE mural_budget SET points = $1`, [rows[0]!.points]);
  });
});

describe('a freeze of the fullest mural', () => {
  it('never holds other requests: a guest’s gallery answers within 1 s while 500,000 points are painted', async () => {
    const { store } = t.server.deps;
    // 250 strokes of 2,000 points from 250 visitors: the mural at its cap, as valid events in the log
    const meta = () => ({ role: 'guest' as const, now: new Date().toISOString() });
    for (let batch = 0; batch < 25; batch++) {
      await Promise.all(
        Array.from({ length: 10 }, async () => {
          const { rows } = await t.db.pool.query<{ id: string }>(`SELECT nextval('mural_stroke_ids') AS id`);
          const strokeId = Number(rows[0]!.id);
          const data = { strokeId, visitorId: randomUUID(), ...stroke(2000) } as const;
          const draw = { type: 'Draw', data: data as never, now: meta().now } as const;
          await handleCommand(store, muralStrokeStream(strokeId), strokeDecider, draw, meta());
        }),
      );
    }
    const admin = client(t.url, await t.login('admin'));
    const guest = client(t.url, await t.login('guest'));
    await waitFor(async () => {
      const { rows } = await t.db.pool.query<{ n: number }>(
        `SELECT coalesce(sum(jsonb_array_length(points)), 0)::int AS n FROM catalog_mural_strokes`,
      );
      return rows[0]!.n >= 500_000;
    }, 120_000);
    expect((await guest('GET', '/api/gallery')).status).toBe(200);

    /** Gallery answer times (ms) while `busy` says so, slowest last. */
    const answerTimes = async (busy: () => boolean) => {
      const times: number[] = [];
      while (busy()) {
        const started = performance.now();
        const res = await guest('GET', '/api/gallery');
        expect(res.status).toBe(200);
        times.push(performance.now() - started);
      }
      return times.sort((a, b) => a - b);
    };
    const p99 = (times: number[]) => times[Math.floor(times.length * 0.99)]!;
    // the same machine without a freeze: a shared 2-core machine stalls every process now and then
    const until = performance.now() + 10_000;
    const calm = await answerTimes(() => performance.now() < until);

    let frozen = false;
    const freezeStarted = performance.now();
    const freeze = admin('POST', '/api/mural/freeze').finally(() => {
      frozen = true;
    });
    const during = await answerTimes(() => !frozen);
    const done = await freeze;
    const freezeMs = performance.now() - freezeStarted;
    expect(done.status).toBe(201);
    expect(done.body.strokeCount).toBeGreaterThanOrEqual(250);
    // painting 500,000 points takes seconds here (30-100 s on the shared 2-core machine); on the API's
    // thread an answer waited for nearly all of it (measured: 28 s and 40 s). This busy machine also
    // stalls every process for up to 2.5 s now and then, freeze or not (measured without a freeze: max
    // 2,475 ms, p99 138 ms; during one: max 2,093 ms, p99 47 ms), so the 1 s holds for the 99th
    // percentile, and the slowest answer must be a small part of the freeze, not the freeze itself.
    expect(during.length).toBeGreaterThanOrEqual(3);
    expect(p99(during)).toBeLessThan(1000);
    expect(during.at(-1)!).toBeLessThan(Math.max(1000, calm.at(-1)!, freezeMs / 10));
  }, 300_000);
});
