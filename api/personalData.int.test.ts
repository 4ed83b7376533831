import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PersonalData } from './personalData.ts';
import { client, startTestServer, type TestServer } from '../tests/support/server.ts';

let t: TestServer;
beforeAll(async () => {
  t = await startTestServer();
});
afterAll(() => t.close());

const addresses = async () =>
  (await t.db.pool.query<{ value: string | null }>(`SELECT value FROM personal_data WHERE kind = 'ip'`)).rows.map(
    (r) => r.value,
  );

describe('addresses in one form', () => {
  it('stores an IPv4-mapped address as IPv4, and erasing it by either spelling erases it', async () => {
    const personal = new PersonalData(t.db.pool);
    const ref = await personal.refForAddress('::ffff:192.0.2.10');
    expect(await personal.refForAddress('192.0.2.10')).toBe(ref);
    expect(await addresses()).toContain('192.0.2.10');
    expect(await personal.erase('ip', '192.0.2.10')).toBe(1);
    expect(await addresses()).not.toContain('192.0.2.10');
  });

  it('erases what a request from 127.0.0.1 stored, with `--address 127.0.0.1`', async () => {
    const guest = client(t.url, await t.login('guest'));
    await guest('POST', '/api/stories', { content: 'Hello', authorName: 'Kim', isAnonymous: true });
    const stored = (await addresses()).filter((a) => a?.includes('127.0.0.1'));
    expect(stored).toEqual(['127.0.0.1']);
    expect(await new PersonalData(t.db.pool).erase('ip', '127.0.0.1')).toBe(1);
    expect((await addresses()).filter((a) => a?.includes('127.0.0.1'))).toEqual([]);
  });

  it('erases rows stored before addresses were canonical', async () => {
    await t.db.pool.query(`INSERT INTO personal_data (kind, value) VALUES ('ip', '::ffff:198.51.100.4')`);
    expect(await new PersonalData(t.db.pool).erase('ip', '198.51.100.4')).toBe(1);
  });

  it('erases the address from the limiters’ counters too', async () => {
    await t.db.pool.query(
      `INSERT INTO rate_limits (key, hits, reset_at) VALUES ('password:addr:203.0.113.9', 3, now() + interval '1 minute')`,
    );
    await new PersonalData(t.db.pool).erase('ip', '::ffff:203.0.113.9');
    const { rowCount } = await t.db.pool.query(`SELECT 1 FROM rate_limits WHERE key LIKE '%203.0.113.9'`);
    expect(rowCount).toBe(0);
  });
});

describe('the log does not link anonymous work to named work', () => {
  it('keeps no visitor id in event metadata, and gives each write an address reference of its own', async () => {
    const guest = client(t.url, await t.login('guest'));
    const named = await guest('POST', '/api/stories', {
      content: 'Named',
      authorName: 'Kim',
      email: 'kim@example.com',
    });
    const anonymous = await guest('POST', '/api/stories', { content: 'Secret', authorName: 'Kim', isAnonymous: true });
    const { rows } = await t.db.pool.query<{ metadata: Record<string, unknown> }>(
      `SELECT metadata FROM events WHERE stream_id = ANY($1) AND type = 'StorySubmitted'`,
      [[`story-${named.body.id}`, `story-${anonymous.body.id}`]],
    );
    expect(rows).toHaveLength(2);
    for (const { metadata } of rows) expect(metadata).not.toHaveProperty('visitorId');
    expect(rows[0]!.metadata.clientRef).not.toEqual(rows[1]!.metadata.clientRef);
  });
});
