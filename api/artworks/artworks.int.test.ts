import fs from 'node:fs';
import path from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { jpegDataUrl, svgDataUrl, textAsPng } from '../../tests/support/images.ts';
import { client, startTestServer, type TestServer } from '../../tests/support/server.ts';
import { startS3 } from '../../tests/support/s3.ts';
import { waitFor } from '../../tests/support/wait.ts';

const submission = async (overrides: Record<string, unknown> = {}) => ({
  title: 'Sunset over the office',
  description: 'For the best broker',
  imageData: await jpegDataUrl(2400, 1800),
  artistName: 'Sam Painter',
  email: 'sam@example.com',
  isFromCanvas: 'false',
  ...overrides,
});

/** One artwork's whole life, against whichever storage the server was given. */
function artworkLife(name: string, start: () => Promise<TestServer>) {
  describe(`an artwork's life (${name})`, () => {
    let t: TestServer;
    let guest: ReturnType<typeof client>;
    let admin: ReturnType<typeof client>;
    beforeAll(async () => {
      t = await start();
      guest = client(t.url, await t.login('guest'));
      admin = client(t.url, await t.login('admin'));
    });
    afterAll(() => t.close());

    it('is submitted, waits, is approved and shows in the gallery with its renditions', async () => {
      const created = await guest('POST', '/api/artworks', await submission());
      expect(created.status).toBe(201);
      expect(created.body).toMatchObject({ status: 'pending', artistName: 'Sam Painter' });
      expect(created.body.email).toBeUndefined();
      const id = created.body.id as number;

      // pending: hidden from guests, listed for the admin with the email
      expect(await guest('GET', `/api/artworks/${id}`)).toMatchObject({
        status: 404,
        body: { message: 'Artwork not found' },
      });
      const pending = await waitFor(async () => {
        const r = await admin('GET', '/api/admin/artworks/pending');
        return r.body.length ? r.body : undefined;
      });
      expect(pending[0]).toMatchObject({ id, email: 'sam@example.com', status: 'pending' });
      expect((await guest('GET', '/api/gallery')).body.total).toBe(0);

      const reviewed = await admin('PATCH', `/api/admin/artworks/${id}`, { status: 'approved', adminNotes: 'Lovely' });
      expect(reviewed).toMatchObject({ status: 200, body: { status: 'approved', adminNotes: 'Lovely' } });
      expect(reviewed.body.approvedAt).toBeTruthy();

      const gallery = await guest('GET', '/api/gallery');
      expect(gallery.body).toMatchObject({ total: 1, page: 1, pageSize: 20, pageCount: 1 });
      const card = gallery.body.items[0];
      expect(card).toMatchObject({
        kind: 'artwork',
        id,
        title: 'Sunset over the office',
        likeCount: 0,
        commentCount: 0,
      });
      expect(card.email).toBeUndefined();
      expect(card.adminNotes).toBeUndefined();
      expect(card.imageData).toMatch(/^\/api\/artworks\/\d+\/image\/display$/);

      // the job makes a WebP thumbnail and a display size of at most 1600 px
      await waitFor(async () => {
        const r = await fetch(`${t.url}${card.thumbnailUrl}`, {
          headers: { cookie: `tg_session=${await t.login('guest')}` },
        });
        return r.headers.get('content-type') === 'image/webp';
      });
      const display = await fetch(`${t.url}${card.imageData}`, {
        headers: { 'x-session-token': await t.login('guest') },
      });
      const meta = await sharp(Buffer.from(await display.arrayBuffer())).metadata();
      expect(meta.format).toBe('webp');
      expect(Math.max(meta.width!, meta.height!)).toBe(1600);

      expect((await guest('GET', '/api/artworks')).body.map((a: { id: number }) => a.id)).toEqual([id]);
      expect((await guest('GET', `/api/artworks/${id}`)).body).toMatchObject({
        id,
        description: 'For the best broker',
      });
    });

    it('moves out of the gallery when archived and back when restored', async () => {
      const { body } = await guest('POST', '/api/artworks', await submission({ title: 'Second' }));
      await admin('PATCH', `/api/admin/artworks/${body.id}`, { status: 'approved' });
      expect((await admin('PATCH', `/api/admin/artworks/${body.id}`, { status: 'archived' })).body.archived).toBe(true);
      expect((await admin('GET', '/api/admin/artworks/archived')).body.map((a: { id: number }) => a.id)).toContain(
        body.id,
      );
      expect((await guest('GET', `/api/artworks/${body.id}`)).status).toBe(404);
      expect((await admin('GET', '/api/admin/queue')).body).toMatchObject({ archived: 1 });
      expect((await admin('POST', `/api/admin/artworks/${body.id}/unarchive`)).body.archived).toBe(false);
      expect((await guest('GET', `/api/artworks/${body.id}`)).status).toBe(200);
    });
  });
}

artworkLife('local files', () => startTestServer());

let s3: Awaited<ReturnType<typeof startS3>> | undefined;
artworkLife('MinIO protocol via s3rver', async () => {
  s3 = await startS3();
  return startTestServer(s3.env);
});
afterAll(() => s3?.stop());

describe('bad input to artwork and admin routes', () => {
  let t: TestServer;
  let guest: ReturnType<typeof client>;
  let admin: ReturnType<typeof client>;
  beforeAll(async () => {
    t = await startTestServer();
    guest = client(t.url, await t.login('guest'));
    admin = client(t.url, await t.login('admin'));
  });
  afterAll(() => t.close());

  /**
   * What the store holds: events, emails, blobs. Taken once every job is done: an earlier test's
   * submission has the worker make its renditions (blobs and an event) a moment later, and a count
   * taken while it ran would differ for a reason that is not the request under test.
   */
  async function written() {
    await waitFor(async () => {
      const { rows } = await t.db.pool.query<{ n: number }>(
        `SELECT count(*)::int AS n FROM pgboss.job WHERE state IN ('created', 'retry', 'active')`,
      );
      return rows[0]!.n === 0;
    }, 60_000);
    const { rows } = await t.db.pool.query<{ events: number; people: number }>(
      `SELECT (SELECT count(*)::int FROM events) AS events,
              (SELECT count(*)::int FROM personal_data WHERE kind = 'email') AS people`,
    );
    const blobs = fs.existsSync(path.join(t.dataDir, 'blobs'))
      ? fs.readdirSync(path.join(t.dataDir, 'blobs'), { recursive: true }).filter((f) => !String(f).includes('.meta'))
          .length
      : 0;
    return { ...rows[0], blobs };
  }

  it.each([
    ['malformed JSON', '{"title": ', 400, 'Malformed JSON'],
    ['no image', { artistName: 'Sam Painter', email: 'sam@example.com' }, 400, 'Image is required'],
    [
      'a short name',
      { imageData: 'data:image/png;base64,AAAA', artistName: 'S', email: 'sam@example.com' },
      400,
      'Artist name is required',
    ],
    [
      'a bad email',
      { imageData: 'data:image/png;base64,AAAA', artistName: 'Sam', email: 'sam@' },
      400,
      'Please enter a valid email',
    ],
    ['wrong types', { imageData: 42, artistName: ['Sam'], email: true }, 400, 'Image is required'],
    ['an SVG', { imageData: svgDataUrl, artistName: 'Sam', email: 'sam@example.com' }, 415, 'Invalid file type'],
    [
      'text behind an image data URL',
      { imageData: textAsPng, artistName: 'Sam', email: 'sam@example.com' },
      415,
      'Invalid file type',
    ],
    [
      'not a data URL',
      { imageData: 'https://example.com/a.png', artistName: 'Sam', email: 'sam@example.com' },
      415,
      'Invalid file type',
    ],
    [
      'a file over 20 MB',
      {
        imageData: `data:image/png;base64,${'A'.repeat(21 * 1024 * 1024 * (4 / 3))}`,
        artistName: 'Sam',
        email: 'sam@example.com',
      },
      413,
      'File too large',
    ],
  ])('refuses %s and writes nothing', async (_name, body, status, message) => {
    const before = await written();
    const res = await guest('POST', '/api/artworks', body);
    expect(res.status).toBe(status);
    expect(res.body.message).toBe(message);
    expect(await written()).toEqual(before);
  });

  it.each([
    ['alt text over 1000 characters', 'x'.repeat(1001), 'Alt text must be 1000 characters or fewer', 'altText'],
    ['alt text that is not text', 42, 'Alt text must be text', 'altText'],
    ['a NUL in the alt text', 'a cake\u0000', 'altText contains characters that are not allowed', 'altText'],
  ])('refuses %s with 400 naming the field, writing nothing', async (_name, altText, message, field) => {
    const before = await written();
    const res = await guest('POST', '/api/artworks', await submission({ altText }));
    expect(res).toMatchObject({ status: 400, body: { message } });
    expect(res.body.errors[0].path).toBe(field);
    expect(await written()).toEqual(before);
  });

  it("keeps an artwork's alt text, trimmed, for everyone who sees the picture (decision 122)", async () => {
    const described = 'A chocolate cake with fifty candles on the office kitchen table';
    const sent = await guest('POST', '/api/artworks', await submission({ altText: `  ${described}\n` }));
    expect(sent).toMatchObject({ status: 201, body: { altText: described } });
    const blank = await guest('POST', '/api/artworks', await submission({ title: 'No words', altText: '   ' }));
    const without = await guest('POST', '/api/artworks', await submission({ title: 'Older client' }));
    for (const id of [sent.body.id, blank.body.id, without.body.id]) {
      expect((await admin('PATCH', `/api/admin/artworks/${id}`, { status: 'approved' })).status).toBe(200);
    }
    expect((await guest('GET', `/api/artworks/${sent.body.id}`)).body.altText).toBe(described);
    expect((await guest('GET', `/api/artworks/${blank.body.id}`)).body.altText).toBeNull();
    expect((await guest('GET', `/api/artworks/${without.body.id}`)).body.altText).toBeNull();
    const cards = (await guest('GET', '/api/gallery')).body.items as Array<{ id: number; altText: string | null }>;
    expect(cards.find((c) => c.id === sent.body.id)?.altText).toBe(described);
    // kept as personal data like the title, so an erasure takes it (decision 050)
    const { rows } = await t.db.pool.query(`SELECT count(*)::int AS n FROM personal_data WHERE kind = 'alt_text'`);
    expect(rows[0].n).toBe(1);
  });

  it('refuses a body larger than any allowed upload', async () => {
    const res = await guest('POST', '/api/artworks', { imageData: 'A'.repeat(30 * 1024 * 1024) });
    expect(res).toMatchObject({ status: 413, body: { message: 'File too large' } });
  });

  it('needs a session for every artwork and admin route', async () => {
    const anon = client(t.url);
    for (const [method, url] of [
      ['GET', '/api/gallery'],
      ['GET', '/api/artworks'],
      ['GET', '/api/artworks/1'],
      ['POST', '/api/artworks'],
      ['GET', '/api/artworks/1/image/thumbnail'],
      ['GET', '/api/admin/artworks/pending'],
      ['GET', '/api/admin/artworks/archived'],
      ['GET', '/api/admin/queue'],
      ['PATCH', '/api/admin/artworks/1'],
      ['POST', '/api/admin/artworks/1/unarchive'],
    ]) {
      expect(await anon(method!, url!, method === 'GET' ? undefined : {}), `${method} ${url}`).toMatchObject({
        status: 401,
        body: { message: 'Authentication required' },
      });
    }
  });

  it('keeps guests and auditors out of admin routes', async () => {
    const auditor = client(t.url, await t.login('auditor'));
    for (const who of [guest, auditor]) {
      expect((await who('GET', '/api/admin/artworks/pending')).status).toBe(403);
      expect((await who('PATCH', '/api/admin/artworks/1', { status: 'approved' })).status).toBe(403);
      expect((await who('POST', '/api/admin/artworks/1/unarchive')).status).toBe(403);
    }
  });

  it('answers an admin PATCH with bad input or an unknown id clearly, writing nothing', async () => {
    const before = await written();
    expect((await admin('PATCH', '/api/admin/artworks/1', { status: 'maybe' })).status).toBe(400);
    expect((await admin('PATCH', '/api/admin/artworks/1', { status: 'approved', adminNotes: 7 })).status).toBe(400);
    expect((await admin('PATCH', '/api/admin/artworks/1', '{oops')).status).toBe(400);
    expect(await admin('PATCH', '/api/admin/artworks/999', { status: 'approved' })).toMatchObject({
      status: 404,
      body: { message: 'Artwork not found' },
    });
    expect((await admin('PATCH', '/api/admin/artworks/abc', { status: 'approved' })).status).toBe(404);
    expect(await written()).toEqual(before);
  });

  it('answers unknown ids and bad gallery queries without a 500', async () => {
    expect((await guest('GET', '/api/artworks/0')).status).toBe(404);
    expect((await guest('GET', '/api/artworks/99999999999999999999')).status).toBe(404);
    expect((await guest('GET', '/api/artworks/1/image/secret')).status).toBe(404);
    expect((await guest('GET', '/api/gallery?page=0')).status).toBe(400);
    expect((await guest('GET', '/api/gallery?page=abc')).status).toBe(400);
    expect((await guest('GET', '/api/gallery?q=a&q=b')).status).toBe(400);
    expect((await guest('GET', '/api/nothing-here')).status).toBe(404);
  });
});
