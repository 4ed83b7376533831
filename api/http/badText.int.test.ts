import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { client, startTestServer, type TestServer } from '../../tests/support/server.ts';

let t: TestServer;
let guest: ReturnType<typeof client>;
let storyId: number;
beforeAll(async () => {
  t = await startTestServer();
  guest = client(t.url, await t.login('guest'));
  const admin = client(t.url, await t.login('admin'));
  const story = await guest('POST', '/api/stories', { content: 'A story', authorName: 'Kim', isAnonymous: true });
  storyId = story.body.id ?? story.body.story?.id;
  await admin('PATCH', `/api/admin/stories/${storyId}`, { status: 'approved' });
});
afterAll(() => t.close());

describe('text PostgreSQL cannot store', () => {
  it('answers a NUL in the gallery search with 400 naming q', async () => {
    const res = await guest('GET', '/api/gallery?q=a%00b');
    expect(res.status).toBe(400);
    expect(res.body.message).toMatch(/^q /);
  });

  it('answers a NUL in a comment with 400 naming the field, and stores nothing', async () => {
    const path = `/api/stories/${storyId}/comments`;
    const res = await guest('POST', path, { authorName: 'Kim', content: 'hi\u0000there' });
    expect(res).toMatchObject({ status: 400, body: { errors: [{ path: 'content' }] } });
    expect((await guest('GET', path)).body).toEqual([]);
  });

  it('answers a lone surrogate in a story with 400 naming the field', async () => {
    // JSON.stringify escapes a lone surrogate as \udc00, which JSON.parse turns back into one
    const body = JSON.stringify({ content: 'broken \udc00 text', authorName: 'Kim', isAnonymous: true });
    const res = await guest('POST', '/api/stories', body);
    expect(res).toMatchObject({ status: 400, body: { errors: [{ path: 'content' }] } });
    const title = JSON.stringify({ title: '\ud800', content: 'x', authorName: 'Kim', isAnonymous: true });
    expect((await guest('POST', '/api/stories', title)).body.errors[0].path).toBe('title');
  });

  it('keeps whole emoji, which are surrogate pairs', async () => {
    const res = await guest('POST', '/api/stories', { content: 'cake 🎂', authorName: 'Kim', isAnonymous: true });
    expect(res.status).toBe(201);
  });
});
