import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { WROTE_COOKIE } from '../http/readYourWrites.ts';
import {
  client,
  type SecondProcess,
  startSecondProcess,
  startTestServer,
  type TestServer,
} from '../../tests/support/server.ts';
import { approved, meta, submitted } from '../../tests/support/fixtures.ts';
import { caughtUp } from '../../tests/support/wait.ts';

// Decision 028: a gallery page is answered at the position this process knows, with no query, and a
// browser that wrote carries its write's position to whichever process answers next.
let t: TestServer;
let second: SecondProcess;
beforeAll(async () => {
  t = await startTestServer();
  second = await startSecondProcess(t);
  for (let id = 1; id <= 3; id++)
    await t.server.deps.store.append(`artwork-${id}`, 0, [submitted(id), approved(id)], meta());
  await caughtUp(t);
});
afterAll(async () => {
  await second?.close();
  await t.close();
});

const catalogPosition = async () =>
  Number((await t.db.pool.query(`SELECT catalog_position() AS p`)).rows[0].p as string);

describe('gallery pages at the position the process knows', () => {
  it('answers a cached page without a database query', async () => {
    const guest = client(t.url, await t.login('guest'));
    await guest('GET', '/api/gallery?page=1');
    const query = vi.spyOn(t.server.deps.pool, 'query');
    try {
      for (let i = 0; i < 10; i++) expect((await guest('GET', '/api/gallery?page=1')).status).toBe(200);
      const gallery = query.mock.calls.filter(([text]) => /catalog_items|AS position/.test(String(text)));
      expect(gallery).toEqual([]);
    } finally {
      query.mockRestore();
    }
  });

  it('shows a writer their like on another process whose tail has not read it yet', async () => {
    const token = await t.login('guest');
    const here = client(t.url, token);
    const there = client(second.url, token);
    await second.server.deps.realtime.reach(await catalogPosition());
    const before = (await there('GET', '/api/gallery?page=1')).body.items[0] as { id: number; likeCount: number };

    // the second process's tail is held where it was, as when its notification is late
    const { known } = second.server.deps.realtime;
    const held = known.at;
    vi.spyOn(known, 'at', 'get').mockReturnValue(held);
    try {
      const liked = await here('POST', `/api/artworks/${before.id}/like`);
      expect(liked.status).toBe(200);
      const wrote = liked.headers
        .getSetCookie()
        .find((c) => c.startsWith(`${WROTE_COOKIE}=`))!
        .split(';')[0]!;
      expect(Number(wrote.split('=')[1])).toBeGreaterThan(held);

      // the writer's browser sends the cookie: the page has the like
      const mine = await there('GET', '/api/gallery?page=1', undefined, { cookie: wrote });
      expect(mine.body.items[0]).toMatchObject({ id: before.id, likeCount: before.likeCount + 1 });
      expect(Number(mine.headers.get('x-log-position'))).toBeGreaterThanOrEqual(Number(wrote.split('=')[1]));
    } finally {
      vi.restoreAllMocks();
    }
  });

  it('answers another visitor from memory until its tail has the change, then at once', async () => {
    const other = client(second.url, await t.login('guest'));
    await second.server.deps.realtime.reach(await catalogPosition());
    const before = await other('GET', '/api/gallery?page=1');
    const { known } = second.server.deps.realtime;
    vi.spyOn(known, 'at', 'get').mockReturnValue(known.at);
    try {
      await t.server.deps.store.append('artwork-4', 0, [submitted(4), approved(4)], meta());
      await caughtUp(t);
      // not yet read by this process: the page it has (its live messages come after it)
      expect((await other('GET', '/api/gallery?page=1')).body.total).toBe(before.body.total);
    } finally {
      vi.restoreAllMocks();
    }
    await second.server.deps.realtime.reach(await catalogPosition());
    expect((await other('GET', '/api/gallery?page=1')).body.total).toBe(before.body.total + 1);
  });
});
