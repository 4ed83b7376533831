import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { jpegDataUrl } from '../../tests/support/images.ts';
import { cardKey } from './cards.ts';
import { client, startTestServer, type TestServer } from '../../tests/support/server.ts';
import { waitFor } from '../../tests/support/wait.ts';

let t: TestServer;
let guestToken: string;
let guest: ReturnType<typeof client>;
let admin: ReturnType<typeof client>;
beforeAll(async () => {
  t = await startTestServer();
  guestToken = await t.login('guest');
  guest = client(t.url, guestToken);
  admin = client(t.url, await t.login('admin'));
});
afterAll(() => t.close());

async function submitArtwork(title: string, width = 1200, height = 1600) {
  const res = await guest('POST', '/api/artworks', {
    title,
    description: '',
    artistName: 'Sam Painter',
    email: 'artist@example.com',
    imageData: await jpegDataUrl(width, height, '#3d405b'),
    isFromCanvas: 'false',
  });
  expect(res.status).toBe(201);
  return res.body.id as number;
}

const get = (url: string, headers: Record<string, string> = {}) =>
  fetch(`${t.url}${url}`, { headers: { 'x-session-token': guestToken, ...headers }, redirect: 'manual' });

type Card = { src: string; srcSet: string; width: number; height: number };

describe('card images', () => {
  it('sends each card the widths it needs at versioned, immutable URLs, cut to the card shape', async () => {
    const id = await submitArtwork('Tall painting');
    // the renditions job gives the display size; the card is made from it
    await waitFor(async () => {
      const row = await t.server.deps.pool.query(`SELECT image FROM catalog_items WHERE kind = 'artwork' AND id = $1`, [
        id,
      ]);
      return row.rows[0]?.image?.display;
    });
    expect((await admin('PATCH', `/api/admin/artworks/${id}`, { status: 'approved' })).status).toBe(200);
    const page = await waitFor(async () => {
      const body = (await guest('GET', '/api/gallery')).body as { items: Array<{ id: number; card: Card | null }> };
      return body.items.find((i) => i.id === id);
    });
    const card = page.card!;
    expect(card).toMatchObject({ width: 480, height: 360 });
    // the renditions job made the card images ahead of the first visitor
    const version = card.src.split('/')[5]!;
    for (const w of [320, 480, 640])
      expect(await t.server.deps.blobs.stat(cardKey('artwork', id, version, w))).toBeTruthy();
    const candidates = card.srcSet.split(', ').map((c) => c.split(' '));
    expect(candidates.map((c) => c[1])).toEqual(['320w', '480w', '640w']);
    expect(card.src).toBe(candidates[1]![0]);

    for (const [url, w] of candidates) {
      const width = Number(w!.slice(0, -1));
      const res = await get(url!);
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toBe('image/webp');
      expect(res.headers.get('cache-control')).toBe('private, max-age=31536000, immutable');
      const bytes = Buffer.from(await res.arrayBuffer());
      const meta = await sharp(bytes).metadata();
      expect(meta).toMatchObject({ format: 'webp', width, height: (width * 3) / 4 });
      expect(bytes.length).toBeLessThan(50_000);
      // the second time from memory, same bytes; and a revalidation is a 304
      const again = Buffer.from(await (await get(url!)).arrayBuffer());
      expect(again.equals(bytes)).toBe(true);
      expect((await get(url!, { 'if-none-match': res.headers.get('etag')! })).status).toBe(304);
    }

    // an older version points at the current one; an unknown width or kind is a 404
    const stale = await get(card.src.replace(/\/[\w-]{16}\//, '/AAAAAAAAAAAAAAAA/'));
    expect(stale.status).toBe(302);
    expect(stale.headers.get('location')).toBe(card.src);
    expect((await get(card.src.replace('480.webp', '500.webp'))).status).toBe(404);
    expect((await get(card.src.replace('/artwork/', '/story/'))).status).toBe(404);
    // without a session, nothing
    expect((await fetch(`${t.url}${card.src}`)).status).toBe(401);
  });

  /** An approved artwork with its card made; the card's URL at width 480. */
  async function approvedCard(title: string) {
    const id = await submitArtwork(title, 400, 300);
    await waitFor(async () => {
      const r = await t.server.deps.pool.query(`SELECT image FROM catalog_items WHERE kind = 'artwork' AND id = $1`, [
        id,
      ]);
      return r.rows[0]?.image?.display;
    });
    expect((await admin('PATCH', `/api/admin/artworks/${id}`, { status: 'approved' })).status).toBe(200);
    const item = await waitFor(async () => {
      const body = (await guest('GET', '/api/gallery')).body as { items: Array<{ id: number; card: Card | null }> };
      return body.items.find((i) => i.id === id);
    });
    return { id, src: item.card!.src };
  }

  it('asks the database about an item once for a crowd of requests for its images (decision 149)', async () => {
    const { src } = await approvedCard('Asked once');
    const { pool, realtime } = t.server.deps;
    const asked: string[] = [];
    const query = pool.query.bind(pool);
    pool.query = ((...args: Parameters<typeof pool.query>) => {
      const text = typeof args[0] === 'string' ? args[0] : (args[0] as { text: string }).text;
      if (/AS email\s+FROM catalog_items/.test(text)) asked.push(text);
      return query(...args);
    }) as typeof pool.query;
    try {
      const at = realtime.known.at;
      const answers = await Promise.all(Array.from({ length: 20 }, () => get(src)));
      expect(answers.map((r) => r.status)).toEqual(Array(20).fill(200));
      expect((await get(src.replace('480.webp', '320.webp'))).status).toBe(200);
      // nothing moved the catalog meanwhile, so one question answered them all
      expect(realtime.known.at).toBe(at);
      expect(asked).toHaveLength(1);
    } finally {
      pool.query = query;
    }
  });

  it('refuses a guest the images of an item archived a moment ago', async () => {
    const { id, src } = await approvedCard('Archived soon');
    expect((await get(src)).status).toBe(200);
    expect((await admin('PATCH', `/api/admin/artworks/${id}`, { status: 'archived' })).status).toBe(200);
    expect((await get(src)).status).toBe(404);
    expect((await get(src.replace('480.webp', '640.webp'))).status).toBe(404);
  });

  it('never shows a pending item to a guest', async () => {
    const id = await submitArtwork('Waiting for review', 400, 300);
    const row = await waitFor(async () => {
      const r = await t.server.deps.pool.query(`SELECT image FROM catalog_items WHERE kind = 'artwork' AND id = $1`, [
        id,
      ]);
      return r.rows[0]?.image?.display && r.rows[0];
    });
    const { cardImage } = await import('#projections/catalog/cardImages.ts');
    const card = cardImage({ kind: 'artwork', id, ...row } as never)!;
    expect((await get(card.src)).status).toBe(404);
  });
});
