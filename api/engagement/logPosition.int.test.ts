import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { jpegDataUrl } from '../../tests/support/images.ts';
import { client, startTestServer, type TestServer } from '../../tests/support/server.ts';
import { waitFor } from '../../tests/support/wait.ts';

let t: TestServer;
let guest: ReturnType<typeof client>;
let admin: ReturnType<typeof client>;
let storyId: number;
let artworkId: number;
beforeAll(async () => {
  t = await startTestServer();
  guest = client(t.url, await t.login('guest'));
  admin = client(t.url, await t.login('admin'));
  const { body } = await guest('POST', '/api/stories', {
    content: 'We met in 2009.',
    authorName: 'Ana',
    email: 'a@b.co',
  });
  storyId = body.id;
  await admin('PATCH', `/api/admin/stories/${storyId}`, { status: 'approved' });
  const artwork = await guest('POST', '/api/artworks', {
    imageData: await jpegDataUrl(),
    artistName: 'Sam',
    email: 's@b.co',
  });
  artworkId = artwork.body.id;
  await admin('PATCH', `/api/admin/artworks/${artworkId}`, { status: 'approved' });
  // its renditions are recorded by a job: the catalog is quiet once they are in
  await waitFor(async () => {
    const { rows } = await t.db.pool.query(
      `SELECT 1 FROM catalog_items WHERE kind = 'artwork' AND id = $1 AND image ? 'display'`,
      [artworkId],
    );
    return rows.length > 0;
  });
});
afterAll(() => t.close());

const catalogPosition = async () =>
  Number((await t.db.pool.query(`SELECT catalog_position() AS p`)).rows[0].p as string);
const logPosition = (res: { headers: Headers }) => Number(res.headers.get('x-log-position'));

/** The live message a change was sent in: what a screen applies on top of an older answer. */
async function lastLiveMessage(event: string, id: number) {
  const { rows } = await t.db.pool.query<{ position: string; payload: { likeCount?: number } }>(
    `SELECT position, payload FROM live_messages WHERE event = $1 AND (payload->>'id')::int = $2
     ORDER BY position DESC LIMIT 1`,
    [event, id],
  );
  return rows[0] && { position: Number(rows[0].position), payload: rows[0].payload };
}

describe('answers that live messages patch carry the catalog position they reflect (X-Log-Position)', () => {
  it('item, likes, like count, like check and comments answer at the catalog position', async () => {
    await guest('POST', `/api/stories/${storyId}/comments`, { authorName: 'Jo', content: 'Lovely' });
    for (const url of [
      `/api/stories/${storyId}`,
      `/api/artworks/${artworkId}`,
      `/api/stories/${storyId}/likes`,
      `/api/stories/${storyId}/likes/count`,
      `/api/stories/${storyId}/likes/check`,
      `/api/stories/${storyId}/comments`,
    ]) {
      const before = await catalogPosition();
      const res = await guest('GET', url);
      const after = await catalogPosition();
      expect(res.status, url).toBe(200);
      expect(res.headers.get('x-log-position'), url).toMatch(/^\d+$/);
      expect(logPosition(res), url).toBeGreaterThanOrEqual(before);
      expect(logPosition(res), url).toBeLessThanOrEqual(after);
    }
    const comments = await guest('GET', `/api/stories/${storyId}/comments`);
    expect(comments.body).toMatchObject([{ authorName: 'Jo', content: 'Lovely' }]);
    expect(logPosition(comments)).toBe(await catalogPosition());
    expect(logPosition(comments)).toBeGreaterThanOrEqual((await lastLiveMessage('comments:added', storyId))!.position);
    // an answer with no position to give has none
    expect((await guest('GET', '/api/stories/99999/likes')).headers.get('x-log-position')).toBeNull();
  });

  it('a likes answer after a like is at or past its live message, and counts it', async () => {
    const other = client(t.url, await t.login('guest'));
    const before = await guest('GET', `/api/stories/${storyId}/likes`);
    const liked = await other('POST', `/api/stories/${storyId}/likes`);
    const message = (await lastLiveMessage('likes:changed', storyId))!;
    expect(message.position).toBeGreaterThan(logPosition(before));
    expect(logPosition(liked)).toBeGreaterThanOrEqual(message.position);
    expect(liked.body.count).toBe(before.body.count + 1);

    for (const url of [
      `/api/stories/${storyId}/likes`,
      `/api/stories/${storyId}/likes/count`,
      `/api/stories/${storyId}`,
    ]) {
      const res = await guest('GET', url);
      expect(logPosition(res), url).toBeGreaterThanOrEqual(message.position);
      expect(res.body.likeCount ?? res.body.count, url).toBe(message.payload.likeCount);
    }
    const own = await other('GET', `/api/stories/${storyId}/likes`);
    expect(own.body).toMatchObject({ count: before.body.count + 1, hasLiked: true });
    expect(logPosition(own)).toBeGreaterThanOrEqual(message.position);
  });
});
