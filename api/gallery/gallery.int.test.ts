import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EventStore } from '#events/store.ts';
import { GalleryPages } from '#projections/catalog/galleryPage.ts';
import type { DomainEvent, LegacyEvent } from '#events/catalog.ts';
import { KINDS } from '../kinds.ts';
import type { Kind } from '#projections/catalog/items.ts';
import { client, startTestServer, type TestServer } from '../../tests/support/server.ts';
import { meta, submitted } from '../../tests/support/fixtures.ts';
import { caughtUp } from '../../tests/support/wait.ts';

let t: TestServer;
let guest: ReturnType<typeof client>;
let store: EventStore;
beforeAll(async () => {
  t = await startTestServer();
  guest = client(t.url, await t.login('guest'));
  store = t.server.deps.store;
});
afterAll(() => t.close());

const now = '2025-09-01T10:00:00.000Z';
const approve = (kind: 'artwork' | 'story', id: number): DomainEvent =>
  kind === 'artwork'
    ? { type: 'ArtworkApproved', data: { artworkId: id, adminNotesRef: null, approvedAt: now } }
    : { type: 'StoryApproved', data: { storyId: id, adminNotesRef: null, approvedAt: now } };

async function addArtwork(id: number, title: string, artistName = 'Sam Painter') {
  await store.append(`artwork-${id}`, 0, [submitted(id, { title, artistName }), approve('artwork', id)], meta());
}
async function addStory(id: number, content: string, authorName = 'Priya Shah') {
  // as the log held it before names and words left it (v1, decision 050)
  const event: LegacyEvent = {
    type: 'StorySubmitted',
    schemaVersion: 1,
    data: { storyId: id, title: null, content, authorName, emailRef: null, isAnonymous: false, submittedAt: now },
  };
  await store.append(`story-${id}`, 0, [event, approve('story', id)], meta());
}
async function settle() {
  await caughtUp(t);
}
const ids = (body: { items: Array<{ kind: string; id: number }> }) => body.items.map((i) => `${i.kind}-${i.id}`);

describe('GET /api/gallery', () => {
  it('mixes every kind, pages by 20, and keeps the day order stable as items come', async () => {
    for (let i = 1; i <= 25; i++) await addArtwork(i, `Painting ${i}`);
    for (let i = 1; i <= 10; i++) await addStory(i, `Story number ${i}`);
    await settle();
    const page1 = (await guest('GET', '/api/gallery')).body;
    expect(page1).toMatchObject({ total: 35, page: 1, pageSize: 20, pageCount: 2 });
    expect(page1.items).toHaveLength(20);
    const page2 = (await guest('GET', '/api/gallery?page=2')).body;
    expect(page2.items).toHaveLength(15);
    const before = [...ids(page1), ...ids(page2)];
    expect(new Set(before.map((x) => x.split('-')[0]))).toEqual(new Set(['artwork', 'story']));
    // never inline image bytes
    expect(JSON.stringify(page1)).not.toContain('base64');

    await addArtwork(100, 'A late arrival');
    await settle();
    const all = [
      ...ids((await guest('GET', '/api/gallery')).body),
      ...ids((await guest('GET', '/api/gallery?page=2')).body),
    ];
    expect(all).toHaveLength(36);
    expect(all.filter((x) => x !== 'artwork-100')).toEqual(before);
  });

  it('searches case-insensitively across titles, names and story content', async () => {
    await addArtwork(200, 'Sunset over HILL street', 'Jordan Lee');
    await addStory(200, 'The day Alex wore the PURPLE tie', 'Maria Rossi');
    await settle();
    expect(ids((await guest('GET', '/api/gallery?q=hill%20STREET')).body)).toEqual(['artwork-200']);
    expect(ids((await guest('GET', '/api/gallery?q=purple')).body)).toEqual(['story-200']);
    expect(ids((await guest('GET', '/api/gallery?q=maria')).body)).toEqual(['story-200']);
    expect(ids((await guest('GET', '/api/gallery?q=jordan')).body)).toEqual(['artwork-200']);
    expect((await guest('GET', '/api/gallery?q=%25')).body.total).toBe(0);
    expect((await guest('GET', '/api/gallery?q=nothing-like-this')).body).toMatchObject({ total: 0, items: [] });
  });

  it('leaves out pending, rejected and archived items', async () => {
    await store.append('artwork-300', 0, [submitted(300, { title: 'Pending one' })], meta());
    await store.append(
      'artwork-301',
      0,
      [
        submitted(301, { title: 'Archived one' }),
        approve('artwork', 301),
        { type: 'ArtworkArchived', data: { artworkId: 301, archivedAt: now } },
      ],
      meta(),
    );
    await settle();
    const all = ids((await guest('GET', '/api/gallery?q=one')).body);
    expect(all).not.toContain('artwork-300');
    expect(all).not.toContain('artwork-301');
  });
});

describe('gallery pages at the catalog position', () => {
  const position = async () =>
    Number((await t.server.deps.pool.query(`SELECT catalog_position() AS p`)).rows[0].p as string);

  it('says which catalog position a page reflects, and answers 304 to a matching ETag', async () => {
    await addArtwork(400, 'Etag one');
    await settle();
    const first = await guest('GET', '/api/gallery');
    expect(first.status).toBe(200);
    expect(Number(first.headers.get('x-log-position'))).toBe(await position());
    const etag = first.headers.get('etag')!;
    expect(etag).toMatch(/^"[\w-]+"$/);
    expect(first.headers.get('cache-control')).toContain('no-cache');
    expect(first.headers.get('content-encoding')).toBe('gzip');
    const plain = await guest('GET', '/api/gallery', undefined, { 'accept-encoding': 'identity' });
    expect(plain.headers.get('content-encoding')).toBeNull();
    expect(plain.body).toEqual(first.body);

    const again = await guest('GET', '/api/gallery', undefined, { 'if-none-match': etag });
    expect(again.status).toBe(304);
    expect(again.body).toBe('');
    expect(again.headers.get('etag')).toBe(etag);
    expect(Number(again.headers.get('x-log-position'))).toBe(await position());
    // a weak form and a list match too; another tag does not
    expect((await guest('GET', '/api/gallery', undefined, { 'if-none-match': `"x", W/${etag}` })).status).toBe(304);
    expect((await guest('GET', '/api/gallery', undefined, { 'if-none-match': '"something-else"' })).status).toBe(200);
    // another page is other bytes
    const page2 = await guest('GET', '/api/gallery?page=2', undefined, { 'if-none-match': etag });
    expect(page2.status).toBe(200);
  });

  it('changes a cached page as soon as an approval is projected, and a like too', async () => {
    const before = await guest('GET', '/api/gallery?page=1');
    const etag = before.headers.get('etag')!;
    await store.append('artwork-401', 0, [submitted(401, { title: 'Arrives late' })], meta());
    await settle();
    // a pending submission moves the position but not the page
    const pending = await guest('GET', '/api/gallery?page=1', undefined, { 'if-none-match': etag });
    expect(pending.status).toBe(304);
    expect(Number(pending.headers.get('x-log-position'))).toBeGreaterThan(Number(before.headers.get('x-log-position')));

    await store.append('artwork-401', 1, [approve('artwork', 401)], meta());
    await settle();
    const after = await guest('GET', '/api/gallery?page=1', undefined, { 'if-none-match': etag });
    expect(after.status).toBe(200);
    expect(after.body.total).toBe(before.body.total + 1);
    expect(Number(after.headers.get('x-log-position'))).toBe(await position());

    const shown = after.body.items[0] as { kind: string; id: number; likeCount: number };
    // the first card is whichever the day's order puts first: an artwork on some days, a story on others
    const liked = await guest('POST', `/api/${KINDS[shown.kind as Kind].path}/${shown.id}/like`);
    expect(liked.status).toBeLessThan(300);
    await settle();
    const afterLike = await guest('GET', '/api/gallery?page=1', undefined, {
      'if-none-match': after.headers.get('etag')!,
    });
    expect(afterLike.status).toBe(200);
    expect(afterLike.body.items[0]).toMatchObject({ kind: shown.kind, id: shown.id, likeCount: shown.likeCount + 1 });
  });

  it('never answers older than the position a request read, when requests race across an approval (issue 9 item 5)', async () => {
    const pool = t.server.deps.pool;
    const pages = new GalleryPages();
    const day = '2026-01-01';
    const { total: startTotal } = await pages.page(pool, { page: 1, q: '', day: '2026-01-02' });

    // The first request's ordering query runs now, on the catalog before the approval, and answers late.
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    let ran!: () => void;
    const orderingRan = new Promise<void>((r) => (ran = r));
    const slow = {
      query: (async (text: string, values?: unknown[]) => {
        const result = await pool.query(text, values);
        if (text.includes('md5(')) {
          ran();
          await gate;
        }
        return result;
      }) as unknown as typeof pool.query,
    };
    const first = pages.page(slow, { page: 1, q: '', day });
    await orderingRan;

    await addArtwork(402, 'Approved while a refresh was running');
    await settle();
    // the second request reads the new position: it must not share the older refresh
    const second = pages.page(pool, { page: 1, q: '', day });
    await Promise.race([second, new Promise((r) => setTimeout(r, 1000))]);
    release();
    expect((await second).total).toBe(startTotal + 1);
    expect((await first).total).toBeGreaterThanOrEqual(startTotal);
    // and the late, older answer does not replace the newer page in the cache
    expect((await pages.page(pool, { page: 1, q: '', day })).total).toBe(startTotal + 1);
  });
});
