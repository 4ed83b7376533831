import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { client, startTestServer, type TestServer } from '../../tests/support/server.ts';

let t: TestServer;
let guest: ReturnType<typeof client>;
let admin: ReturnType<typeof client>;
beforeAll(async () => {
  t = await startTestServer();
  guest = client(t.url, await t.login('guest'));
  admin = client(t.url, await t.login('admin'));
});
afterAll(() => t.close());

async function newStory(content: string): Promise<number> {
  const created = await guest('POST', '/api/stories', { content, authorName: 'Sam', email: 'sam@example.com' });
  expect(created.status).toBe(201);
  return created.body.id as number;
}

const eventsOf = async (id: number) =>
  (
    await t.db.pool.query<{ type: string }>(`SELECT type FROM events WHERE stream_id = $1 ORDER BY stream_version`, [
      `story-${id}`,
    ])
  ).rows.map((r) => r.type);

describe('moderation decides pending items', () => {
  it('records three concurrent approvals of one story as one event, and all three answer 200', async () => {
    const id = await newStory('Approved three times at once');
    const answers = await Promise.all(
      [1, 2, 3].map(() => admin('PATCH', `/api/admin/stories/${id}`, { status: 'approved' })),
    );
    expect(answers.map((a) => a.status)).toEqual([200, 200, 200]);
    expect(answers.every((a) => a.body.status === 'approved')).toBe(true);
    expect(await eventsOf(id)).toEqual(['StorySubmitted', 'StoryApproved']);
  });

  it('lets one of an approval and a rejection racing win; the other answers 409 with the status that stands', async () => {
    const id = await newStory('Approve and reject at once');
    const [approve, reject] = await Promise.all([
      admin('PATCH', `/api/admin/stories/${id}`, { status: 'approved' }),
      admin('PATCH', `/api/admin/stories/${id}`, { status: 'rejected' }),
    ]);
    const statuses = [approve.status, reject.status].sort();
    expect(statuses).toEqual([200, 409]);
    const winner = approve.status === 200 ? 'approved' : 'rejected';
    const loser = approve.status === 200 ? reject : approve;
    expect(loser.body).toMatchObject({ message: `Story was already ${winner}`, status: winner, version: 2 });
    expect(await eventsOf(id)).toEqual(['StorySubmitted', winner === 'approved' ? 'StoryApproved' : 'StoryRejected']);
  });

  it('changes a decision only when the request states the current version (body or If-Match)', async () => {
    const id = await newStory('A change of mind');
    await admin('PATCH', `/api/admin/stories/${id}`, { status: 'approved' });
    const refused = await admin('PATCH', `/api/admin/stories/${id}`, { status: 'rejected' });
    expect(refused.status).toBe(409);
    expect(refused.body).toMatchObject({ status: 'approved', version: 2 });

    const stale = await admin('PATCH', `/api/admin/stories/${id}`, { status: 'rejected', expectedVersion: 1 });
    expect(stale.status).toBe(409);
    const changed = await admin('PATCH', `/api/admin/stories/${id}`, { status: 'rejected', expectedVersion: 2 });
    expect(changed.status).toBe(200);
    expect(changed.body.status).toBe('rejected');
    const back = await admin('PATCH', `/api/admin/stories/${id}`, { status: 'approved' }, { 'if-match': '"3"' });
    expect(back.status).toBe(200);
    expect(back.body.status).toBe('approved');
    expect(await eventsOf(id)).toEqual(['StorySubmitted', 'StoryApproved', 'StoryRejected', 'StoryApproved']);
  });

  it('answers 400 for a version that is not one, and writes nothing', async () => {
    const id = await newStory('Bad versions');
    const badHeader = await admin('PATCH', `/api/admin/stories/${id}`, { status: 'approved' }, { 'if-match': 'soon' });
    expect(badHeader.status).toBe(400);
    const badBody = await admin('PATCH', `/api/admin/stories/${id}`, { status: 'approved', expectedVersion: 'two' });
    expect(badBody.status).toBe(400);
    expect(badBody.body.errors[0].path).toBe('expectedVersion');
    expect(await eventsOf(id)).toEqual(['StorySubmitted']);
  });

  it('applies the same rules to artworks and media (PUT /api/media/{id}/status)', async () => {
    const { rows } = await t.db.pool.query<{ n: number }>(`SELECT count(*)::int AS n FROM events`);
    expect(rows[0]!.n).toBeGreaterThan(0);
    const missing = await admin('PUT', '/api/media/999999/status', { status: 'approved' });
    expect(missing.status).toBe(404);
    const artwork = await admin('PATCH', '/api/admin/artworks/999999', { status: 'approved' });
    expect(artwork.status).toBe(404);
  });
});

describe('moderating while the catalog is behind (issue 22)', () => {
  it('answers 202 with what was saved for an item the catalog does not know yet, never 404 after saving', async () => {
    // an API process alone: no projections run, so the catalog never gets the story
    const behind = await startTestServer({}, 'api');
    try {
      const author = client(behind.url, await behind.login('guest'));
      const sent = await author('POST', '/api/stories', {
        content: 'Sent while the worker is away',
        authorName: 'Sam',
        email: 'sam@example.com',
      });
      expect(sent.status, JSON.stringify(sent.body)).toBe(201);
      const id = sent.body.id as number;
      const moderator = client(behind.url, await behind.login('admin'));
      const approved = await moderator('PATCH', `/api/admin/stories/${id}`, { status: 'approved' });
      expect(approved.status).toBe(202);
      expect(approved.body).toMatchObject({ success: true, id, status: 'approved' });
      const { rows } = await behind.db.pool.query<{ type: string }>(
        `SELECT type FROM events WHERE stream_id = $1 ORDER BY stream_version`,
        [`story-${id}`],
      );
      expect(rows.map((r) => r.type)).toEqual(['StorySubmitted', 'StoryApproved']);
    } finally {
      await behind.close();
    }
  }, 120_000);
});
