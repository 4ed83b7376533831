import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { client, startTestServer, type TestServer } from './support/server.ts';

/** Every call of spec §7 and CONTRACT §3, as method and path. */
const ROUTES: Array<[string, string]> = [
  ['GET', '/api/gallery'],
  ['GET', '/api/tribute'],
  ['POST', '/api/auth/logout'],
  ['GET', '/api/auth/session'],
  ['GET', '/api/artworks'],
  ['POST', '/api/artworks'],
  ['GET', '/api/artworks/1'],
  ['GET', '/api/artworks/1/comments'],
  ['POST', '/api/artworks/1/comments'],
  ['GET', '/api/artworks/1/likes/check'],
  ['GET', '/api/artworks/1/likes/count'],
  ['POST', '/api/artworks/1/likes'],
  ['DELETE', '/api/artworks/1/likes'],
  ['DELETE', '/api/artworks/1'],
  ['DELETE', '/api/comments/1'],
  ['GET', '/api/stories'],
  ['POST', '/api/stories'],
  ['GET', '/api/stories/1'],
  ['GET', '/api/stories/1/comments'],
  ['POST', '/api/stories/1/comments'],
  ['GET', '/api/stories/1/likes/check'],
  ['GET', '/api/stories/1/likes/count'],
  ['POST', '/api/stories/1/likes'],
  ['POST', '/api/stories/1/like'],
  ['DELETE', '/api/stories/1'],
  ['DELETE', '/api/stories/comments/1'],
  ['GET', '/api/media'],
  ['POST', '/api/media'],
  ['GET', '/api/media/1'],
  ['GET', '/api/media/1/comments'],
  ['POST', '/api/media/1/comments'],
  ['GET', '/api/media/1/likes'],
  ['GET', '/api/media/1/likes/count'],
  ['POST', '/api/media/1/likes'],
  ['POST', '/api/media/1/like'],
  ['DELETE', '/api/media/1'],
  ['DELETE', '/api/media/comments/1'],
  ['GET', '/api/media/1/thumbnail'],
  ['GET', '/api/media/1/stream'],
  ['PUT', '/api/media/1/status'],
  ['POST', '/api/upload-direct'],
  ['POST', '/api/process'],
  ['POST', '/api/media/submit-optimized'],
  ['GET', '/api/admin/artworks/pending'],
  ['GET', '/api/admin/stories/pending'],
  ['GET', '/api/admin/media/pending'],
  ['GET', '/api/admin/artworks/archived'],
  ['PATCH', '/api/admin/artworks/1'],
  ['PATCH', '/api/admin/stories/1'],
  ['PATCH', '/api/admin/media/1'],
  ['POST', '/api/admin/artworks/1/unarchive'],
  ['GET', '/api/admin/queue'],
  ['GET', '/api/admin/events'],
  ['GET', '/api/admin/events/verify'],
  ['GET', '/api/admin/events/export'],
  ['GET', '/api/admin/keepsake'],
  ['GET', '/api/admin/montage'],
  ['POST', '/api/admin/montage'],
  ['GET', '/api/montage.mp4'],
  ['GET', '/api/admin/history/story/1'],
  ['GET', '/api/show'],
  ['POST', '/api/show'],
  ['POST', '/api/artworks/1/reactions'],
  ['POST', '/api/stories/1/reactions'],
  ['POST', '/api/media/1/reactions'],
  ['GET', '/api/artworks/1/strokes'],
  ['GET', '/api/mural'],
  ['POST', '/api/mural/strokes'],
  ['DELETE', '/api/mural/strokes/1'],
  ['POST', '/api/mural/lock'],
  ['POST', '/api/mural/unlock'],
  ['POST', '/api/mural/freeze'],
];
const ADMIN_ONLY = ROUTES.filter(([, p]) => /^\/api\/admin\/(?!events|history)/.test(p) || p.endsWith('/status'));

let t: TestServer;
beforeAll(async () => {
  t = await startTestServer();
});
afterAll(() => t.close());

describe('every route', () => {
  it.each(ROUTES)('%s %s needs a session (401), even with a malformed body', async (method, path) => {
    const res = await client(t.url)(method, path, method === 'GET' ? undefined : '{"broken": ');
    expect(res).toMatchObject({ status: 401, body: { message: 'Authentication required' } });
  });

  it.each(ADMIN_ONLY)('%s %s refuses a guest (403)', async (method, path) => {
    const res = await client(t.url, await t.login('guest'))(method, path, method === 'GET' ? undefined : {});
    expect(res.status).toBe(403);
  });

  it.each(ROUTES.filter(([m]) => m !== 'GET'))(
    '%s %s answers a malformed JSON body with 4xx, never 500',
    async (method, path) => {
      const res = await client(t.url, await t.login('admin'))(method, path, '{"broken": ', {
        authorization: 'the-admin-key',
      });
      expect(res.status).toBeGreaterThanOrEqual(400);
      expect(res.status).toBeLessThan(500);
    },
  );

  it.each(ROUTES.filter(([m]) => m !== 'GET'))(
    '%s %s answers JSON nested deeper than 32 levels with 400 (CONTRACT §9)',
    async (method, path) => {
      const deep = `{"a":${'['.repeat(10_000)}${']'.repeat(10_000)}}`;
      const res = await client(t.url, await t.login('admin'))(method, path, deep, { authorization: 'the-admin-key' });
      expect(res.status).toBe(400);
    },
  );

  it('writes nothing for any of them', async () => {
    const { rows } = await t.db.pool.query(`SELECT count(*)::int AS n FROM events`);
    expect(rows[0].n).toBe(0);
  });
});
