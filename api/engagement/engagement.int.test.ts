import { hash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EventStore } from '#events/store.ts';
import { jpegDataUrl } from '../../tests/support/images.ts';
import { ADMIN_KEY, client, startTestServer, type TestServer } from '../../tests/support/server.ts';
import { projected, waitFor } from '../../tests/support/wait.ts';

let t: TestServer;
let guest: ReturnType<typeof client>;
let admin: ReturnType<typeof client>;
let artworkId: number;
beforeAll(async () => {
  t = await startTestServer();
  guest = client(t.url, await t.login('guest'));
  admin = client(t.url, await t.login('admin'));
  const created = await guest('POST', '/api/artworks', {
    imageData: await jpegDataUrl(),
    artistName: 'Sam Painter',
    email: 'sam@example.com',
  });
  artworkId = created.body.id;
  await admin('PATCH', `/api/admin/artworks/${artworkId}`, { status: 'approved' });
});
afterAll(() => t.close());

describe('artwork comments and likes (spec §7 artwork calls)', () => {
  it('adds, lists and deletes a comment with the admin-key header', async () => {
    const added = await guest('POST', `/api/artworks/${artworkId}/comments`, { authorName: 'Jo', content: 'Wow' });
    expect(added).toMatchObject({ status: 201, body: { artworkId, authorName: 'Jo', content: 'Wow' } });
    expect((await guest('GET', `/api/artworks/${artworkId}/comments`)).body).toHaveLength(1);
    expect((await guest('GET', '/api/gallery')).body.items[0].commentCount).toBe(1);
    expect(await guest('DELETE', `/api/comments/${added.body.id}`)).toMatchObject({
      status: 401,
      body: { message: 'Admin key required' },
    });
    expect(await guest('DELETE', `/api/comments/${added.body.id}`, undefined, { 'admin-key': 'nope' })).toMatchObject({
      status: 403,
      body: { message: 'Invalid admin key' },
    });
    expect(
      (await guest('DELETE', `/api/comments/${added.body.id}`, undefined, { 'admin-key': ADMIN_KEY })).status,
    ).toBe(200);
    expect((await guest('GET', `/api/artworks/${artworkId}/comments`)).body).toEqual([]);
    expect((await guest('DELETE', '/api/comments/abc', undefined, { 'admin-key': ADMIN_KEY })).status).toBe(404);
  });

  it('likes and unlikes with count and check', async () => {
    expect((await guest('POST', `/api/artworks/${artworkId}/likes`)).body).toMatchObject({ count: 1 });
    expect((await guest('GET', `/api/artworks/${artworkId}/likes/check`)).body).toEqual({ hasLiked: true });
    expect((await guest('GET', `/api/artworks/${artworkId}/likes/count`)).body).toEqual({ count: 1 });
    expect((await guest('DELETE', `/api/artworks/${artworkId}/likes`)).body).toMatchObject({ count: 0 });
    expect((await guest('DELETE', `/api/artworks/${artworkId}/likes`)).body).toMatchObject({ count: 0 });
    expect((await guest('GET', `/api/artworks/${artworkId}/likes/check`)).body).toEqual({ hasLiked: false });
  });

  it('hides likes and comments of unknown or pending artworks', async () => {
    const pending = await guest('POST', '/api/artworks', {
      imageData: await jpegDataUrl(),
      artistName: 'Sam Painter',
      email: 'a@b.co',
    });
    for (const url of [
      `/api/artworks/${pending.body.id}/likes/count`,
      '/api/artworks/99999/comments',
      '/api/artworks/x/likes/check',
    ]) {
      expect((await guest('GET', url)).status).toBe(404);
    }
    expect((await guest('POST', `/api/artworks/${pending.body.id}/likes`)).status).toBe(404);
  });

  it('deletes an artwork and its files with the admin key', async () => {
    const created = await guest('POST', '/api/artworks', {
      imageData: await jpegDataUrl(),
      artistName: 'Sam Painter',
      email: 'a@b.co',
    });
    const id = created.body.id;
    const key = `artworks/${id}/original.jpg`;
    expect(await t.server.deps.blobs.stat(key)).not.toBeNull();
    expect((await guest('DELETE', `/api/artworks/${id}`, undefined, { authorization: 'wrong' })).status).toBe(403);
    expect(
      (await guest('DELETE', `/api/artworks/${id}`, undefined, { authorization: `Bearer ${ADMIN_KEY}` })).status,
    ).toBe(200);
    expect(await t.server.deps.blobs.stat(key)).toBeNull();
    expect((await admin('GET', `/api/artworks/${id}`)).status).toBe(404);
  });

  it('counts views first-party, once per visitor, and only of visible items', async () => {
    expect((await guest('POST', `/api/artworks/${artworkId}/views`)).body).toEqual({ viewCount: 1 });
    expect((await guest('POST', `/api/artworks/${artworkId}/views`)).body).toEqual({ viewCount: 1 });
    const other = client(t.url, await t.login('guest'));
    expect((await other('POST', `/api/artworks/${artworkId}/views`)).body).toEqual({ viewCount: 2 });
    expect((await guest('GET', `/api/artworks/${artworkId}`)).body.viewCount).toBe(2);
    expect((await guest('POST', '/api/artworks/99999/views')).status).toBe(404);
    expect((await client(t.url)('POST', `/api/artworks/${artworkId}/views`)).status).toBe(401);
  });

  it('keeps auditors read-only', async () => {
    const auditor = client(t.url, await t.login('auditor'));
    expect((await auditor('GET', '/api/gallery')).status).toBe(200);
    expect((await auditor('POST', `/api/artworks/${artworkId}/likes`)).status).toBe(403);
    expect((await auditor('POST', '/api/stories', { content: 'x', authorName: 'x', email: 'a@b.co' })).status).toBe(
      403,
    );
  });
});

describe('LIKE_IDENTITY=ip', () => {
  it('counts one like per address, as the first version did', async () => {
    const byIp = await startTestServer({ LIKE_IDENTITY: 'ip' });
    try {
      const one = client(byIp.url, await byIp.login('guest'));
      const two = client(byIp.url, await byIp.login('guest'));
      const adminIp = client(byIp.url, await byIp.login('admin'));
      const { body } = await one('POST', '/api/stories', { content: 'Same desk', authorName: 'Sam', email: 'a@b.co' });
      await adminIp('PATCH', `/api/admin/stories/${body.id}`, { status: 'approved' });
      expect((await one('POST', `/api/stories/${body.id}/likes`)).body.count).toBe(1);
      // another session from the same address is the same liker
      expect((await two('POST', `/api/stories/${body.id}/likes`)).body.count).toBe(1);
      expect((await two('GET', `/api/stories/${body.id}/likes/check`)).body).toEqual({ hasLiked: true });
      const { rows } = await byIp.db.pool.query(`SELECT data FROM events WHERE type = 'ItemLiked'`);
      expect(JSON.stringify(rows)).not.toContain('127.0.0.1');
    } finally {
      await byIp.close();
    }
  });
});

describe('like and view streams (decision 050)', () => {
  const approvedArtwork = async () => {
    const created = await guest('POST', '/api/artworks', {
      imageData: await jpegDataUrl(),
      artistName: 'Sam Painter',
      email: 'sam@example.com',
    });
    await admin('PATCH', `/api/admin/artworks/${created.body.id}`, { status: 'approved' });
    return created.body.id as number;
  };

  it('name a per-item pseudonym, never the visitor id, and one visitor’s two items do not link', async () => {
    const token = await t.login('guest');
    const visitor = client(t.url, token);
    const { rows } = await t.db.pool.query<{ id: string }>(
      `SELECT visitor_id::text AS id FROM sessions WHERE token_hash = $1`,
      [hash('sha256', token, 'hex')],
    );
    const visitorId = rows[0]!.id;
    const ids = [await approvedArtwork(), await approvedArtwork()];
    for (const id of ids) {
      expect((await visitor('POST', `/api/artworks/${id}/likes`)).body).toMatchObject({ count: 1 });
      expect((await visitor('POST', `/api/artworks/${id}/views`)).body).toEqual({ viewCount: 1 });
      expect((await visitor('GET', `/api/artworks/${id}/likes/check`)).body).toEqual({ hasLiked: true });
    }
    const { rows: events } = await t.db.pool.query<{ stream_id: string; data: { itemId: number; visitorKey: string } }>(
      `SELECT stream_id, data FROM events WHERE type IN ('ItemLiked', 'ItemViewed') AND (data->>'itemId')::int = ANY($1)`,
      [ids],
    );
    expect(events).toHaveLength(4);
    expect(JSON.stringify(events)).not.toContain(visitorId);
    // a like and a view of one item share its pseudonym; the two items' differ
    const keys = new Map(events.map((e) => [e.data.itemId, e.data.visitorKey]));
    expect(keys.size).toBe(2);
    expect(new Set(keys.values()).size).toBe(2);
    for (const e of events) expect(e.stream_id).toMatch(/^(like|view)-artwork-\d+-p[0-9a-f]{32}$/);
  });

  it('keep a like and a view made before pseudonyms as one, on the stream that named the visitor', async () => {
    const token = await t.login('guest');
    const visitor = client(t.url, token);
    const { rows } = await t.db.pool.query<{ id: string }>(
      `SELECT visitor_id::text AS id FROM sessions WHERE token_hash = $1`,
      [hash('sha256', token, 'hex')],
    );
    const key = `v${rows[0]!.id}`;
    const id = await approvedArtwork();
    const target = { kind: 'artwork' as const, itemId: id, visitorKey: key };
    const store = new EventStore(t.db.pool);
    const meta = { role: 'guest' as const, now: new Date().toISOString() };
    await store.append(`like-artwork-${id}-${key}`, 0, [{ type: 'ItemLiked', data: target }], meta);
    await store.append(`view-artwork-${id}-${key}`, 0, [{ type: 'ItemViewed', data: target }], meta);
    await waitFor(async () => (await visitor('GET', `/api/artworks/${id}/likes`)).body.likeCount === 1, 30_000);
    // the view too: the two appends may be projected in different batches
    await projected(t.db.pool);

    expect((await visitor('GET', `/api/artworks/${id}/likes/check`)).body).toEqual({ hasLiked: true });
    expect((await visitor('POST', `/api/artworks/${id}/likes`)).body).toMatchObject({ count: 1 });
    expect((await visitor('POST', `/api/artworks/${id}/views`)).body).toEqual({ viewCount: 1 });
    expect((await visitor('POST', `/api/artworks/${id}/like`)).body).toMatchObject({ liked: false, count: 0 });
    const { rows: streams } = await t.db.pool.query<{ stream_id: string; type: string }>(
      `SELECT stream_id, type FROM events WHERE (data->>'itemId')::int = $1 AND type LIKE 'Item%' ORDER BY position`,
      [id],
    );
    expect(streams).toEqual([
      { stream_id: `like-artwork-${id}-${key}`, type: 'ItemLiked' },
      { stream_id: `view-artwork-${id}-${key}`, type: 'ItemViewed' },
      { stream_id: `like-artwork-${id}-${key}`, type: 'ItemUnliked' },
    ]);
  });
});
