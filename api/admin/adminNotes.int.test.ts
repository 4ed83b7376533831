import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { verifyChain } from '#events/chain.ts';
import { exportNdjson } from '#events/export.ts';
import { EventStore } from '#events/store.ts';
import { chainSealer } from '#projections/chain/chainSealer.ts';
import { runBatch } from '#projections/runner.ts';
import { ADMIN_KEY, client, startTestServer, type TestServer } from '../../tests/support/server.ts';
import { caughtUp, waitFor } from '../../tests/support/wait.ts';

/** Admin notes are erasable values (decision 090): the log holds a ref, the words sit in personal_data. */
let t: TestServer;
let admin: ReturnType<typeof client>;
let guest: ReturnType<typeof client>;
beforeAll(async () => {
  t = await startTestServer();
  admin = client(t.url, await t.login('admin'));
  guest = client(t.url, await t.login('guest'));
});
afterAll(() => t.close());

const NOTE = 'Checked with Priya Ramanathan on her mobile';

async function exported(): Promise<Array<Record<string, any>>> {
  await runBatch(new EventStore(t.db.pool), chainSealer, 10_000);
  let text = '';
  await exportNdjson(
    t.db.pool,
    new Writable({
      write(chunk, _enc, done) {
        text += chunk;
        done();
      },
    }),
  );
  return text
    .trimEnd()
    .split('\n')
    .map((l) => JSON.parse(l));
}

describe('an admin note', () => {
  it('is kept outside the log, shown to the admin, and blanked with its item while the chain verifies', async () => {
    const id = (
      await guest('POST', '/api/stories', { content: 'A story', authorName: 'Kim', email: 'kim@example.com' })
    ).body.id as number;
    const reviewed = await admin('PATCH', `/api/admin/stories/${id}`, { status: 'rejected', adminNotes: NOTE });
    expect(reviewed).toMatchObject({ status: 200, body: { status: 'rejected', adminNotes: NOTE } });
    // the same decision again records nothing, not even a second note
    await admin('PATCH', `/api/admin/stories/${id}`, { status: 'rejected', adminNotes: NOTE });

    const raw = await t.db.pool.query<{ d: string }>(`SELECT data::text AS d FROM events WHERE type = 'StoryRejected'`);
    expect(raw.rows).toHaveLength(1);
    expect(raw.rows[0]!.d).not.toContain('Priya');
    const notes = await t.db.pool.query(`SELECT 1 FROM personal_data WHERE kind = 'admin_notes'`);
    expect(notes.rowCount).toBe(1);

    const line = (await exported()).find((e) => e.type === 'StoryRejected')!;
    expect(line.data.adminNotesRef).toEqual(expect.any(Number));
    expect(line.personal).toEqual({ adminNotesRef: NOTE });
    expect(line.commitments.adminNotesRef).toMatch(/^[0-9a-f]{64}$/);
    expect(line.salts.adminNotesRef).toEqual(expect.any(String));

    expect((await admin('DELETE', `/api/stories/${id}`, undefined, { 'admin-key': ADMIN_KEY })).status).toBe(200);
    const after = (await exported()).find((e) => e.type === 'StoryRejected')!;
    expect(after.personal).toEqual({ adminNotesRef: null });
    const verified = await verifyChain(t.db.pool);
    expect(verified.ok).toBe(true);
  });

  it('written inline before (v1) is still read, replayed and verified', async () => {
    const id = (
      await guest('POST', '/api/stories', { content: 'Old one', authorName: 'Lee', email: 'lee@example.com' })
    ).body.id as number;
    const store = new EventStore(t.db.pool);
    await store.append(
      `story-${id}`,
      1,
      [
        {
          type: 'StoryApproved',
          schemaVersion: 1,
          data: { storyId: id, adminNotes: 'written before', approvedAt: new Date().toISOString() },
        },
      ],
      { role: 'admin', now: new Date().toISOString() },
    );
    await caughtUp(t);
    const item = await waitFor(async () => {
      const r = await admin('GET', `/api/stories/${id}`);
      return r.body.status === 'approved' && r.body;
    });
    expect(item.adminNotes).toBe('written before');
    const line = (await exported()).find((e) => e.type === 'StoryApproved' && e.data.storyId === id)!;
    expect(line).toMatchObject({ schemaVersion: 1, data: { adminNotes: 'written before' } });
    expect((await verifyChain(t.db.pool)).ok).toBe(true);
  });
});
