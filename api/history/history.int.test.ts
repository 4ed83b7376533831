import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { client, startTestServer, type TestServer } from '../../tests/support/server.ts';

let t: TestServer;
let auditor: ReturnType<typeof client>;
let storyId: number;
beforeAll(async () => {
  t = await startTestServer();
  auditor = client(t.url, await t.login('auditor'));
  const guest = client(t.url, await t.login('guest'));
  const admin = client(t.url, await t.login('admin'));
  storyId = (await guest('POST', '/api/stories', { content: 'Once', authorName: 'Sam', email: 'sam@example.com' })).body
    .id;
  await admin('PATCH', `/api/admin/stories/${storyId}`, { status: 'approved' });
  await guest('POST', `/api/stories/${storyId}/like`);
  await t.server.runner!.wake();
});
afterAll(() => t.close());

describe('event history for auditors', () => {
  it('pages through the log with hashes, and filters by stream and type', async () => {
    const page = await auditor('GET', '/api/admin/events?limit=2');
    expect(page.body.events).toHaveLength(2);
    expect(page.body.events[0]).toMatchObject({
      position: expect.any(Number),
      streamId: `story-${storyId}`,
      type: 'StorySubmitted',
    });
    expect(page.body.events[0].hash).toMatch(/^[0-9a-f]{64}$/);
    expect(page.body.next).toBe(page.body.events[1].position);
    const liked = await auditor('GET', '/api/admin/events?type=ItemLiked');
    expect(liked.body.events.map((e: { type: string }) => e.type)).toEqual(['ItemLiked']);
    // events hold references to personal data, never the email itself
    expect(JSON.stringify(page.body)).not.toContain('sam@example.com');
  });

  it('verifies the chain and exports NDJSON', async () => {
    expect((await auditor('GET', '/api/admin/events/verify')).body).toMatchObject({ ok: true, checked: 3 });
    const res = await fetch(`${t.url}/api/admin/events/export`, {
      headers: { 'x-session-token': await t.login('auditor') },
    });
    expect(res.headers.get('content-type')).toContain('application/x-ndjson');
    const lines = (await res.text())
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(lines.map((l) => l.type)).toEqual(['StorySubmitted', 'StoryApproved', 'ItemLiked']);
  });

  it("shows one item's history, likes and comments included", async () => {
    const history = await auditor('GET', `/api/admin/history/story/${storyId}`);
    expect(history.body.events.map((e: { type: string }) => e.type)).toEqual([
      'StorySubmitted',
      'StoryApproved',
      'ItemLiked',
    ]);
    expect((await auditor('GET', '/api/admin/history/story/999')).status).toBe(404);
    expect((await auditor('GET', '/api/admin/history/nope/1')).status).toBe(404);
  });

  it('is closed to guests, while auditors stay out of the review panel', async () => {
    const guest = client(t.url, await t.login('guest'));
    expect((await guest('GET', '/api/admin/events')).status).toBe(403);
    expect((await guest('GET', '/api/admin/events/verify')).status).toBe(403);
    expect((await client(t.url)('GET', '/api/admin/events')).status).toBe(401);
    expect((await auditor('GET', '/api/admin/artworks/pending')).status).toBe(403);
    expect((await auditor('GET', '/api/admin/events?limit=5000')).status).toBe(400);
  });
});

describe('erasing a person', () => {
  it('blanks their email everywhere it is shown, and the chain still verifies', async () => {
    const admin = client(t.url, await t.login('admin'));
    const guest = client(t.url, await t.login('guest'));
    await guest('POST', '/api/stories', { content: 'Erase me', authorName: 'Eve', email: 'eve@example.com' });
    const before = (await admin('GET', '/api/admin/stories/pending')).body;
    expect(before.map((s: { email: string }) => s.email)).toContain('eve@example.com');
    const { PersonalData } = await import('../personalData.ts');
    expect(await new PersonalData(t.db.pool).erase('email', 'EVE@example.com')).toBe(1);
    const after = (await admin('GET', '/api/admin/stories/pending')).body;
    expect(JSON.stringify(after)).not.toContain('eve@example.com');
    await t.server.runner!.wake();
    expect((await auditor('GET', '/api/admin/events/verify')).body.ok).toBe(true);
  });
});
