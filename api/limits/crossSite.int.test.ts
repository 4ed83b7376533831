import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeTestMedia, removeTestMedia } from '../../tests/support/media.ts';
import { client, startTestServer, type TestServer } from '../../tests/support/server.ts';

let t: TestServer;
let token: string;
let storyId: number;
const EVIL = 'https://evil.example';
beforeAll(async () => {
  t = await startTestServer();
  token = await t.login('guest');
  const guest = client(t.url, token);
  const admin = client(t.url, await t.login('admin'));
  storyId = (await guest('POST', '/api/stories', { content: 'A story', authorName: 'Kim', isAnonymous: true })).body.id;
  await admin('PATCH', `/api/admin/stories/${storyId}`, { status: 'approved' });
});
afterAll(async () => {
  await removeTestMedia();
  await t.close();
});

/** What a form on another site makes the browser send: its cookie, its Origin, form encoding. */
async function crossSitePost(path: string, headers: Record<string, string> = {}) {
  const res = await fetch(`${t.url}${path}`, {
    method: 'POST',
    headers: {
      cookie: `tg_session=${token}`,
      origin: EVIL,
      'content-type': 'application/x-www-form-urlencoded',
      ...headers,
    },
    body: 'authorName=Eve&content=spam',
  });
  return res.status;
}

const likeCount = async () => (await client(t.url, token)('GET', `/api/stories/${storyId}/likes/count`)).body.count;

describe('cross-site requests', () => {
  it('refuses a form post from another site carrying the cookie, and writes nothing', async () => {
    expect(await crossSitePost(`/api/stories/${storyId}/like`)).toBe(403);
    expect(await crossSitePost(`/api/stories/${storyId}/comments`)).toBe(403);
    expect(await crossSitePost('/api/auth/logout')).toBe(403);
    expect(await likeCount()).toBe(0);
    expect((await client(t.url, token)('GET', `/api/stories/${storyId}/comments`)).body).toEqual([]);
    expect((await client(t.url, token)('GET', '/api/auth/session')).status).toBe(200);
  });

  it('refuses what the browser marks cross-site, even without an Origin', async () => {
    const res = await client(t.url, token)('POST', `/api/stories/${storyId}/like`, undefined, {
      'sec-fetch-site': 'cross-site',
    });
    expect(res.status).toBe(403);
    expect(await likeCount()).toBe(0);
  });

  it('refuses form and text bodies from its own origin too: JSON only', async () => {
    const origin = t.url;
    expect(await crossSitePost(`/api/stories/${storyId}/comments`, { origin })).toBe(415);
    expect(await crossSitePost(`/api/stories/${storyId}/comments`, { origin, 'content-type': 'text/plain' })).toBe(415);
  });

  it('accepts the app itself: JSON and multipart uploads from its own origin', async () => {
    const headers = { origin: t.url };
    const liked = await client(t.url, token)('POST', `/api/stories/${storyId}/like`, undefined, headers);
    expect(liked.status).toBe(200);
    const media = await makeTestMedia();
    const form = new FormData();
    form.append('file', new Blob([fs.readFileSync(media.mp3)], { type: 'audio/mpeg' }), 'tone.mp3');
    const res = await fetch(`${t.url}/api/upload-direct`, {
      method: 'POST',
      headers: { cookie: `tg_session=${token}`, ...headers },
      body: form,
    });
    expect(res.status).toBe(201);
    const evil = new FormData();
    evil.append('file', new Blob([fs.readFileSync(media.mp3)], { type: 'audio/mpeg' }), 'tone.mp3');
    const refused = await fetch(`${t.url}/api/upload-direct`, {
      method: 'POST',
      headers: { cookie: `tg_session=${token}`, origin: EVIL },
      body: evil,
    });
    expect(refused.status).toBe(403);
  });

  it('trusts a same-origin Sec-Fetch-Site behind a proxy that rewrites Host', async () => {
    const headers = { origin: 'http://localhost:5173', 'sec-fetch-site': 'same-origin' };
    const res = await client(t.url, token)('POST', `/api/stories/${storyId}/views`, undefined, headers);
    expect(res.status).toBe(200);
  });
});
