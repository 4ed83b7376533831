import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { log } from '../observability/logger.ts';
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

  it("carries the id of the request that started it, in its data and on its log lines, like the request's events", async () => {
    const lines: { bindings: Record<string, unknown>; msg: string | undefined }[] = [];
    const child = log.child.bind(log);
    const spy = vi.spyOn(log, 'child').mockImplementation((bindings, options) => {
      const jobLog = child(bindings, options);
      const info = jobLog.info.bind(jobLog);
      jobLog.info = ((obj: unknown, msg?: string) => {
        lines.push({ bindings, msg });
        return info(obj as object, msg);
      }) as typeof jobLog.info;
      return jobLog;
    });
    try {
      const guest = client(t.url, await t.login('guest'));
      // the id is the server's own: one sent by the caller is not taken up (docs/decisions/049)
      const sent = 'caller-chosen-id';
      const res = await guest(
        'POST',
        '/api/artworks',
        {
          title: 'Traced',
          artistName: 'Sam Painter',
          email: 'sam@example.com',
          imageData: await jpegDataUrl(320, 240),
          isFromCanvas: 'false',
        },
        { 'x-request-id': sent },
      );
      expect(res.status).toBe(201);
      const requestId = res.headers.get('x-request-id')!;
      expect(requestId).toMatch(/^[0-9a-f-]{36}$/);
      expect(requestId).not.toBe(sent);
      const artworkId = String(res.body.id);

      const job = await waitFor(async () => {
        const { rows } = await t.server.deps.pool.query<{ data: Record<string, unknown>; state: string }>(
          `SELECT data, state FROM pgboss.job WHERE name = 'make-artwork-renditions' AND data->>'artworkId' = $1`,
          [artworkId],
        );
        return rows[0]?.state === 'completed' && rows[0];
      }, 20_000);
      expect(job.data).toEqual({ artworkId: Number(artworkId), requestId });

      const done = await waitFor(async () =>
        lines.find(
          (l) =>
            l.msg === 'job done' && l.bindings.job === 'make-artwork-renditions' && l.bindings.requestId === requestId,
        ),
      );
      expect(done.bindings).toEqual({ job: 'make-artwork-renditions', requestId });

      const { rows } = await t.server.deps.pool.query<{ type: string; id: string }>(
        `SELECT type, metadata->>'requestId' AS id FROM events WHERE stream_id = $1 ORDER BY position`,
        [`artwork-${artworkId}`],
      );
      expect(rows[0]).toEqual({ type: 'ArtworkSubmitted', id: requestId });
    } finally {
      spy.mockRestore();
    }
  });
});
