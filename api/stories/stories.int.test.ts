import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_KEY, client, startTestServer, type TestServer } from '../../tests/support/server.ts';
import { caughtUp } from '../../tests/support/wait.ts';

let t: TestServer;
let guest: ReturnType<typeof client>;
let admin: ReturnType<typeof client>;
beforeAll(async () => {
  t = await startTestServer();
  guest = client(t.url, await t.login('guest'));
  admin = client(t.url, await t.login('admin'));
});
afterAll(() => t.close());

const story = (overrides: Record<string, unknown> = {}) => ({
  title: 'The day we closed the Hill Street deal',
  content: 'It was raining.\nAlex brought umbrellas for everyone.',
  authorName: 'Priya Shah',
  email: 'priya@example.com',
  isAnonymous: false,
  ...overrides,
});

async function count(sql: string) {
  const { rows } = await t.db.pool.query<{ n: number }>(sql);
  return rows[0]!.n;
}

describe('stories', () => {
  it('are submitted pending, hidden from guests, approved with notes, then listed', async () => {
    const created = await guest('POST', '/api/stories', story());
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ kind: 'story', status: 'pending', authorName: 'Priya Shah' });
    expect(created.body.email).toBeUndefined();
    const id = created.body.id;
    expect(await guest('GET', `/api/stories/${id}`)).toMatchObject({
      status: 404,
      body: { message: 'Story not found' },
    });
    expect((await admin('GET', '/api/admin/stories/pending')).body[0]).toMatchObject({
      id,
      email: 'priya@example.com',
    });

    const approved = await admin('PATCH', `/api/admin/stories/${id}`, { status: 'approved', adminNotes: 'Beautiful' });
    expect(approved.body).toMatchObject({ status: 'approved', adminNotes: 'Beautiful' });
    expect(approved.body.approvedAt).toBeTruthy();
    const got = await guest('GET', `/api/stories/${id}`);
    expect(got.body).toMatchObject({ content: story().content, title: story().title });
    expect(got.body.email).toBeUndefined();
    expect((await guest('GET', '/api/stories')).body.map((s: { id: number }) => s.id)).toContain(id);
  });

  it('shows an anonymous author as Anonymous and never sends the email', async () => {
    const created = await guest('POST', '/api/stories', story({ isAnonymous: true, authorName: 'Real Name' }));
    await admin('PATCH', `/api/admin/stories/${created.body.id}`, { status: 'approved' });
    const got = await guest('GET', `/api/stories/${created.body.id}`);
    expect(got.body).toMatchObject({ authorName: 'Anonymous', isAnonymous: true });
    expect(JSON.stringify(got.body)).not.toContain('Real Name');
    expect(JSON.stringify(await guest('GET', '/api/gallery'))).not.toContain('priya@example.com');
    const { rows } = await t.db.pool.query(`SELECT data FROM events WHERE type = 'StorySubmitted'`);
    expect(JSON.stringify(rows)).not.toContain('priya@example.com');
  });

  it('takes an anonymous story without any contact details', async () => {
    const res = await guest('POST', '/api/stories', story({ isAnonymous: true, authorName: 'Anonymous', email: null }));
    expect(res).toMatchObject({ status: 201, body: { authorName: 'Anonymous', isAnonymous: true } });
  });

  it.each([
    ['no content', { content: '   ' }, 'Please write something before submitting'],
    ['no name', { authorName: '' }, 'Please enter your name'],
    ['a bad email', { email: 'nope' }, 'Please enter a valid email address'],
    ['a long title', { title: 'x'.repeat(256) }, 'Title must be 255 characters or fewer'],
    ['a long name', { authorName: 'x'.repeat(256) }, 'Name must be 255 characters or fewer'],
    ['a long email', { email: `${'x'.repeat(250)}@example.com` }, 'Email must be 255 characters or fewer'],
    ['wrong types', { content: 5, isAnonymous: 'yes' }, 'Please write something before submitting'],
    ['no email on a named story', { email: null }, 'Please enter a valid email address'],
  ])('refuses %s with the spec message and writes nothing', async (_n, overrides, message) => {
    const before = await count('SELECT count(*)::int AS n FROM events');
    const res = await guest('POST', '/api/stories', story(overrides));
    expect(res).toMatchObject({ status: 400, body: { message } });
    expect(await count('SELECT count(*)::int AS n FROM events')).toBe(before);
  });
});

describe('comments', () => {
  let storyId: number;
  beforeAll(async () => {
    storyId = (await guest('POST', '/api/stories', story())).body.id;
    await admin('PATCH', `/api/admin/stories/${storyId}`, { status: 'approved' });
  });

  it('are added trimmed, listed, counted, and deleted with the admin key', async () => {
    const added = await guest('POST', `/api/stories/${storyId}/comments`, {
      authorName: '  Sam  ',
      content: '  Lovely  ',
    });
    expect(added).toMatchObject({ status: 201, body: { storyId, authorName: 'Sam', content: 'Lovely' } });
    const list = await guest('GET', `/api/stories/${storyId}/comments`);
    expect(list.body).toHaveLength(1);
    expect((await guest('GET', `/api/stories/${storyId}`)).body.commentCount).toBe(1);

    const commentId = added.body.id;
    expect(await guest('DELETE', `/api/stories/comments/${commentId}`)).toMatchObject({
      status: 401,
      body: { message: 'Admin key required' },
    });
    expect(
      await guest('DELETE', `/api/stories/comments/${commentId}`, undefined, { authorization: 'Bearer wrong' }),
    ).toMatchObject({ status: 403, body: { message: 'Invalid admin key' } });
    const removed = await guest('DELETE', `/api/stories/comments/${commentId}`, undefined, {
      authorization: `Bearer ${ADMIN_KEY}`,
    });
    expect(removed).toMatchObject({ status: 200, body: { message: 'Comment deleted successfully' } });
    expect((await guest('GET', `/api/stories/${storyId}/comments`)).body).toHaveLength(0);
    expect(
      (await guest('DELETE', `/api/stories/comments/${commentId}`, undefined, { authorization: ADMIN_KEY })).status,
    ).toBe(404);
  });

  it.each([
    [{ authorName: 'S', content: 'Hi' }, 'Name is required'],
    [{ authorName: 'Sam', content: '   ' }, 'Comment cannot be empty'],
    [{ authorName: 'Sam', content: 'x'.repeat(501) }, 'Comment is too long'],
    [{ authorName: 7, content: 'Hi' }, 'Name is required'],
  ])('refuses %j with "%s"', async (body, message) => {
    expect(await guest('POST', `/api/stories/${storyId}/comments`, body)).toMatchObject({
      status: 400,
      body: { message },
    });
  });

  it('are refused on pending and unknown items', async () => {
    const pending = (await guest('POST', '/api/stories', story())).body.id;
    expect((await guest('POST', `/api/stories/${pending}/comments`, { authorName: 'Sam', content: 'Hi' })).status).toBe(
      404,
    );
    expect((await guest('GET', `/api/stories/${pending}/comments`)).status).toBe(404);
    expect((await guest('GET', '/api/stories/999999/comments')).status).toBe(404);
  });
});

describe('likes', () => {
  it('count once per visitor, toggle on detail pages, and answer every variant', async () => {
    const id = (await guest('POST', '/api/stories', story())).body.id;
    await admin('PATCH', `/api/admin/stories/${id}`, { status: 'approved' });
    const other = client(t.url, await t.login('guest'));

    expect((await guest('POST', `/api/stories/${id}/likes`)).body).toMatchObject({ count: 1 });
    expect((await guest('POST', `/api/stories/${id}/likes`)).body).toMatchObject({ count: 1 });
    expect((await other('POST', `/api/stories/${id}/likes`)).body).toMatchObject({ count: 2 });
    expect((await guest('GET', `/api/stories/${id}/likes/check`)).body).toEqual({ hasLiked: true });
    expect((await guest('GET', `/api/stories/${id}/likes/count`)).body).toEqual({ count: 2 });
    expect((await guest('POST', `/api/stories/${id}/like`)).body).toMatchObject({ liked: false, likeCount: 1 });
    expect((await guest('POST', `/api/stories/${id}/like`)).body).toMatchObject({ liked: true, likeCount: 2 });
    expect((await other('DELETE', `/api/stories/${id}/likes`)).body).toMatchObject({ count: 1 });
    expect((await other('GET', `/api/stories/${id}/likes`)).body).toMatchObject({ likeCount: 1, hasLiked: false });
  });

  it('are exact when 200 visitors like one item at once, and the catalog equals a replay', async () => {
    const id = (await guest('POST', '/api/stories', story())).body.id;
    await admin('PATCH', `/api/admin/stories/${id}`, { status: 'approved' });
    const visitors = await Promise.all(Array.from({ length: 200 }, () => t.login('guest')));
    const results = await Promise.all(
      visitors.map((token) => client(t.url, token)('POST', `/api/stories/${id}/likes`)),
    );
    expect(results.every((r) => r.status === 200)).toBe(true);
    // a second like from each changes nothing
    await Promise.all(visitors.slice(0, 50).map((token) => client(t.url, token)('POST', `/api/stories/${id}/likes`)));
    await caughtUp(t);
    expect((await guest('GET', `/api/stories/${id}/likes/count`)).body).toEqual({ count: 200 });
    expect(
      await count(`SELECT count(*)::int AS n FROM events WHERE type = 'ItemLiked' AND data->>'itemId' = '${id}'`),
    ).toBe(200);
    const { check } = await import('#projections/maintenance.ts');
    const { catalogProjection } = await import('#projections/catalog/catalogProjection.ts');
    expect(await check(t.server.deps.store, catalogProjection)).toEqual({ ok: true });
  });
});

describe('deletion', () => {
  it('removes a story and its comments with the admin key only', async () => {
    const id = (await guest('POST', '/api/stories', story())).body.id;
    await admin('PATCH', `/api/admin/stories/${id}`, { status: 'approved' });
    await guest('POST', `/api/stories/${id}/comments`, { authorName: 'Sam', content: 'Hi' });
    expect((await guest('DELETE', `/api/stories/${id}`)).status).toBe(401);
    expect((await guest('DELETE', `/api/stories/${id}`, undefined, { authorization: 'nope' })).status).toBe(403);
    expect((await guest('DELETE', `/api/stories/${id}`, undefined, { authorization: ADMIN_KEY })).status).toBe(200);
    expect((await admin('GET', `/api/stories/${id}`)).status).toBe(404);
    expect(
      await count(`SELECT count(*)::int AS n FROM catalog_comments WHERE kind = 'story' AND item_id = ${id}`),
    ).toBe(0);
    expect((await guest('DELETE', `/api/stories/${id}`, undefined, { authorization: ADMIN_KEY })).status).toBe(404);
  });
});
