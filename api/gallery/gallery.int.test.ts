import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EventStore } from '#events/store.ts';
import type { DomainEvent } from '#events/catalog.ts';
import { client, startTestServer, type TestServer } from '../../tests/support/server.ts';
import { meta, submitted } from '../../tests/support/fixtures.ts';

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
    ? { type: 'ArtworkApproved', data: { artworkId: id, adminNotes: null, approvedAt: now } }
    : { type: 'StoryApproved', data: { storyId: id, adminNotes: null, approvedAt: now } };

async function addArtwork(id: number, title: string, artistName = 'Sam Painter') {
  await store.append(`artwork-${id}`, 0, [submitted(id, { title, artistName }), approve('artwork', id)], meta());
}
async function addStory(id: number, content: string, authorName = 'Priya Shah') {
  const event: DomainEvent = {
    type: 'StorySubmitted',
    data: { storyId: id, title: null, content, authorName, emailRef: null, isAnonymous: false, submittedAt: now },
  };
  await store.append(`story-${id}`, 0, [event, approve('story', id)], meta());
}
async function settle() {
  await t.server.runner!.wake();
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
