import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { client, startTestServer, type TestServer } from '../../tests/support/server.ts';
import { waitFor } from '../../tests/support/wait.ts';
import { jpegDataUrl } from '../../tests/support/images.ts';

let t: TestServer;
beforeAll(async () => {
  t = await startTestServer();
});
afterAll(() => t.close());

describe('the job queue', () => {
  it('runs a backlog of jobs one after another, not one per 30 s poll', async () => {
    // five submissions at once: their jobs are sent (and NOTIFY'd) while the worker is busy with the first
    const guest = client(t.url, await t.login('guest'));
    const image = await jpegDataUrl(1200, 900, '#81b29a');
    const started = Date.now();
    for (let i = 0; i < 5; i++) {
      const res = await guest('POST', '/api/artworks', {
        title: `Queued ${i}`,
        artistName: 'Sam Painter',
        email: 'sam@example.com',
        imageData: image,
        isFromCanvas: 'false',
      });
      expect(res.status).toBe(201);
    }
    // pg-boss's backstop poll with LISTEN/NOTIFY on is 30 s: a stalled backlog would take that long
    await waitFor(async () => {
      const { rows } = await t.server.deps.pool.query<{ n: number }>(
        `SELECT count(*)::int AS n FROM catalog_items WHERE kind = 'artwork' AND image ? 'display'`,
      );
      return rows[0]!.n === 5;
    }, 25_000);
    console.log(`5 rendition jobs done ${Date.now() - started} ms after the first submission`);
  });
});
