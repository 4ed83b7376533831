import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { meta, submitted } from '../../tests/support/fixtures.ts';
import { client, startTestServer, type TestServer } from '../../tests/support/server.ts';
import { caughtUp, waitFor } from '../../tests/support/wait.ts';

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
  await caughtUp(t);
});
afterAll(() => t.close());

describe('event history for auditors', () => {
  it('pages through the log by seq with links and actors, and filters by stream and type', async () => {
    const page = await auditor('GET', '/api/admin/events?limit=2');
    expect(page.body.events).toHaveLength(2);
    expect(page.body.events[0]).toMatchObject({
      seq: 1,
      position: expect.any(Number),
      streamId: `story-${storyId}`,
      version: 1,
      type: 'StorySubmitted',
      actor: { role: 'guest', name: null },
      prevHash: '0'.repeat(64),
      recordedAt: expect.stringMatching(/Z$/),
    });
    expect(page.body.events[0].hash).toMatch(/^[0-9a-f]{64}$/);
    expect(page.body.events[1].prevHash).toBe(page.body.events[0].hash);
    expect(page.body.next).toBe(2);
    const rest = await auditor('GET', `/api/admin/events?after=${page.body.next}`);
    expect(rest.body.events[0].seq).toBe(3);
    const newest = await auditor('GET', '/api/admin/events?order=desc&limit=1');
    expect(newest.body.events[0].type).toBe('ItemLiked');
    expect((await auditor('GET', '/api/admin/events?kind=story')).body.events).toHaveLength(3);
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
    expect(lines.slice(0, -1).map((l) => l.type)).toEqual(['StorySubmitted', 'StoryApproved', 'ItemLiked']);
    expect(lines.at(-1)).toMatchObject({ end: { events: 3, head: { seq: 3 } } });
  });

  it("shows one item's history, likes and comments included", async () => {
    const history = await auditor('GET', `/api/admin/history/story/${storyId}`);
    expect(history.body.events.map((e: { type: string }) => e.type)).toEqual([
      'StorySubmitted',
      'StoryApproved',
      'ItemLiked',
    ]);
    expect(history.body.item).toMatchObject({ kind: 'story', id: storyId, status: 'approved' });
    expect(Object.keys(history.body.events[1]).sort()).toEqual(['actor', 'data', 'recordedAt', 'seq', 'type']);
    expect(history.body.events[1]).toMatchObject({ seq: 2, actor: { role: 'admin', name: null } });
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

describe('tailing the history with after=SEQ', () => {
  it('never skips an event that commits late with a lower position', async () => {
    await caughtUp(t);
    const all = async (after: number) => {
      const events = [];
      for (let cursor = after; ;) {
        const page = await auditor('GET', `/api/admin/events?after=${cursor}&limit=1000`);
        events.push(...page.body.events);
        if (page.body.next === null) return events;
        cursor = page.body.next;
      }
    };
    let cursor = (await all(0)).at(-1).seq;
    const late = await t.db.pool.connect();
    const early = await t.db.pool.connect();
    try {
      // `early` takes the older transaction id, `late` the newer one but the lower position
      await early.query('BEGIN');
      await early.query('SELECT pg_current_xact_id()');
      await late.query('BEGIN');
      await late.query('SELECT pg_current_xact_id()');
      const store = t.server.deps.store;
      const low = (await store.append('artwork-9001', 0, [submitted(9001)], meta(), late)).positions[0]!;
      const high = (await store.append('artwork-9002', 0, [submitted(9002)], meta(), early)).positions[0]!;
      expect(low).toBeLessThan(high);
      await early.query('COMMIT');
      await t.server.runner!.wake();
      const first = await waitFor(async () => {
        const got = await all(cursor);
        return got.length ? got : undefined;
      });
      expect(first.map((e: { position: number }) => e.position)).toEqual([high]);
      cursor = first.at(-1).seq;
      await late.query('COMMIT');
      await t.server.runner!.wake();
      const second = await waitFor(async () => {
        const got = await all(cursor);
        return got.length ? got : undefined;
      });
      expect(second.map((e: { position: number }) => e.position)).toEqual([low]);
      expect(second[0].seq).toBe(cursor + 1);
    } finally {
      late.release();
      early.release();
    }
  });
});

describe('who did it', () => {
  const loginAs = async (password: string, name?: unknown) => {
    const res = await fetch(`${t.url}/api/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ password, name }),
    });
    return { status: res.status, body: await res.json() };
  };

  it('records the name given at login as the actor of every event, filterable and erasable', async () => {
    const ada = await loginAs('admin-pass', '  Ada Lovelace ');
    expect(ada.status).toBe(200);
    const admin = client(t.url, ada.body.sessionToken);
    const guest = client(t.url, await t.login('guest'));
    const id = (await guest('POST', '/api/stories', { content: 'Named', authorName: 'Kim', email: 'kim@example.com' }))
      .body.id;
    await admin('PATCH', `/api/admin/stories/${id}`, { status: 'approved', adminNotes: 'Lovely' });
    await caughtUp(t);
    const history = await waitFor(async () => {
      const h = await auditor('GET', `/api/admin/history/stories/${id}`);
      return h.body.events?.length === 2 && h.body;
    });
    expect(history.events[1]).toMatchObject({
      type: 'StoryApproved',
      data: { adminNotesRef: expect.any(Number) },
      personal: { adminNotesRef: 'Lovely' },
      actor: { role: 'admin', name: 'Ada Lovelace' },
    });
    expect(history.events[0].actor).toEqual({ role: 'guest', name: null });
    const byAda = await auditor('GET', '/api/admin/events?actor=ada%20lovelace');
    expect(byAda.body.events.map((e: { type: string }) => e.type)).toEqual(['StoryApproved']);
    // the log holds a reference, never the name
    const raw = await t.db.pool.query(`SELECT metadata::text AS m FROM events WHERE type = 'StoryApproved'`);
    expect(raw.rows.map((r) => r.m).join()).not.toContain('Ada');

    const { PersonalData } = await import('../personalData.ts');
    expect(await new PersonalData(t.db.pool).erase('name', 'ADA LOVELACE')).toBe(1);
    const erased = await auditor('GET', `/api/admin/history/stories/${id}`);
    expect(erased.body.events[1].actor).toEqual({ role: 'admin', name: null });
    expect((await auditor('GET', '/api/admin/events/verify')).body.ok).toBe(true);
  });

  it('takes a name from auditors too, ignores one from guests, and refuses a bad one', async () => {
    expect((await loginAs('auditor-pass', 'Olive Auditor')).status).toBe(200);
    const guest = await loginAs('guest-pass', 'Gus');
    expect(guest.status).toBe(200);
    const { rows } = await t.db.pool.query(`SELECT count(*)::int AS n FROM personal_data WHERE value = 'Gus'`);
    expect(rows[0].n).toBe(0);
    for (const name of ['A', 'x'.repeat(61), 42]) {
      const bad = await loginAs('admin-pass', name);
      expect(bad.status).toBe(400);
      expect(JSON.stringify(bad.body)).toMatch(/Name must be/);
    }
    expect((await loginAs('admin-pass', '')).status).toBe(200);
  });
});

describe('erasing a person', () => {
  it('is open to admins from the console, with its result, and closed to auditors', async () => {
    const admin = client(t.url, await t.login('admin'));
    const guest = client(t.url, await t.login('guest'));
    await guest('POST', '/api/stories', { content: 'Erase me too', authorName: 'Flo', email: 'flo@example.com' });
    expect((await auditor('POST', '/api/admin/erase', { email: 'flo@example.com' })).status).toBe(403);
    const bad = await admin('POST', '/api/admin/erase', { email: 'flo@example.com', name: 'Flo' });
    expect(bad.status).toBe(400);
    expect(JSON.stringify(bad.body)).toContain('exactly one of email, address or name');
    const done = await admin('POST', '/api/admin/erase', { email: 'FLO@example.com' });
    // the person who gave it: their email, name and story text (decision 050)
    expect(done).toMatchObject({ status: 200, body: { erased: 3, kind: 'email', subjects: 1, items: 1 } });
    expect(JSON.stringify((await admin('GET', '/api/admin/stories/pending')).body)).not.toContain('flo@example.com');
  });

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
    await caughtUp(t);
    expect((await auditor('GET', '/api/admin/events/verify')).body.ok).toBe(true);
  });
});

describe('the history between two times, a page at a time', () => {
  type Row = { seq: number; type: string; streamId: string; recordedAt: string };
  const dbNow = async () =>
    (
      await t.db.pool.query<{ at: string }>(
        `SELECT to_char(clock_timestamp() AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') AS at`,
      )
    ).rows[0]!.at;
  const seqs = (body: { events: Row[] }) => body.events.map((e) => e.seq);
  const tell = async (content: string) => {
    const guest = client(t.url, await t.login('guest'));
    const admin = client(t.url, await t.login('admin'));
    const id = (await guest('POST', '/api/stories', { content, authorName: 'Tia', email: 'tia@example.com' })).body.id;
    await admin('PATCH', `/api/admin/stories/${id}`, { status: 'approved' });
    expect((await guest('POST', `/api/stories/${id}/like`)).status).toBeLessThan(300);
    await caughtUp(t);
    return `story-${id}`;
  };
  let before: string, between: string, after: string;
  let early: string, late: string;
  beforeAll(async () => {
    before = await dbNow();
    early = await tell('Early');
    between = await dbNow();
    late = await tell('Late');
    after = await dbNow();
  });

  it('since and until keep the events recorded between them, both ends included', async () => {
    const window = await auditor('GET', `/api/admin/events?since=${before}&until=${after}&limit=1000`);
    const inWindow = window.body.events as Row[];
    const which = (e: Row) => (e.streamId === early ? 'early' : e.streamId === late ? 'late' : 'engagement');
    expect(inWindow.map((e) => `${e.type}:${which(e)}`)).toEqual([
      'StorySubmitted:early',
      'StoryApproved:early',
      'ItemLiked:engagement',
      'StorySubmitted:late',
      'StoryApproved:late',
      'ItemLiked:engagement',
    ]);
    const onlyLate = (await auditor('GET', `/api/admin/events?since=${between}&limit=1000`)).body.events as Row[];
    expect(onlyLate.map((e) => e.type)).toEqual(['StorySubmitted', 'StoryApproved', 'ItemLiked']);
    expect(onlyLate[0]!.streamId).toBe(late);
    const upToBetween = (await auditor('GET', `/api/admin/events?since=${before}&until=${between}`)).body.events;
    expect(seqs({ events: upToBetween })).toEqual(seqs({ events: inWindow.slice(0, 3) }));
    expect((await auditor('GET', `/api/admin/events?until=${before}&limit=1000`)).body.events.length).toBeGreaterThan(
      0,
    );
    expect(
      ((await auditor('GET', `/api/admin/events?until=${before}&limit=1000`)).body.events as Row[]).every(
        (e) => e.recordedAt <= before,
      ),
    ).toBe(true);

    // an event's own recordedAt, as the history shows it, is inside since and until
    const one = inWindow[3]!;
    const exact = (await auditor('GET', `/api/admin/events?since=${one.recordedAt}&until=${one.recordedAt}`)).body;
    expect(seqs(exact)).toEqual([one.seq]);
    // another offset names the same instant
    const shifted = new Date(Date.parse(between) + 2 * 3600_000).toISOString().replace('Z', '+02:00');
    const viaOffset = (await auditor('GET', `/api/admin/events?since=${encodeURIComponent(shifted)}&limit=1000`)).body;
    expect(seqs(viaOffset)).toEqual(seqs({ events: onlyLate }));
    expect(
      (await auditor('GET', `/api/admin/events?since=${after}&until=${before}`)).body.events,
      'until before since',
    ).toEqual([]);
    expect((await auditor('GET', `/api/admin/events?since=${after}`)).body).toEqual({ events: [], next: null });
  });

  it('refuses times that are not ISO dates and times with a zone', async () => {
    for (const bad of ['yesterday', '2026-01-01', '2026-01-01T10:00:00']) {
      for (const key of ['since', 'until']) {
        const res = await auditor('GET', `/api/admin/events?${key}=${bad}`);
        expect(res.status, `${key}=${bad}`).toBe(400);
        expect(JSON.stringify(res.body)).toContain(`${key} must be an ISO date and time`);
      }
    }
  });

  it('pages forward with after and next, and back with before, over the same events', async () => {
    const all = seqs((await auditor('GET', '/api/admin/events?limit=1000')).body);
    expect(all).toEqual(Array.from({ length: all.length }, (_, i) => i + 1));

    const forward: number[] = [];
    const nexts: (number | null)[] = [];
    for (let cursor = 0; ;) {
      const page = (await auditor('GET', `/api/admin/events?after=${cursor}&limit=3`)).body;
      expect(page.events.length).toBeLessThanOrEqual(3);
      forward.push(...seqs(page));
      nexts.push(page.next);
      if (page.next === null) break;
      expect(page.next).toBe(page.events.at(-1).seq);
      cursor = page.next;
    }
    expect(forward).toEqual(all);
    expect(nexts.filter((n) => n === null)).toHaveLength(1);

    const backward: number[] = [];
    for (let cursor: number | undefined; ;) {
      const page = (
        await auditor('GET', `/api/admin/events?order=desc&limit=3${cursor === undefined ? '' : `&before=${cursor}`}`)
      ).body;
      backward.push(...seqs(page));
      if (page.next === null) break;
      expect(page.next).toBe(page.events.at(-1).seq);
      cursor = page.next;
    }
    expect(backward).toEqual([...all].reverse());

    // after and before together are an open window; past the head there is nothing
    expect(seqs((await auditor('GET', '/api/admin/events?after=2&before=6')).body)).toEqual([3, 4, 5]);
    expect((await auditor('GET', `/api/admin/events?after=${all.at(-1)}`)).body).toEqual({ events: [], next: null });
  });

  it('pages a filtered stream by the seqs of what matched', async () => {
    const likes = (await auditor('GET', '/api/admin/events?type=ItemLiked&limit=1000')).body.events as Row[];
    expect(likes.length).toBeGreaterThanOrEqual(3);
    const first = (await auditor('GET', '/api/admin/events?type=ItemLiked&order=desc&limit=2')).body;
    expect(seqs(first)).toEqual(
      likes
        .slice(-2)
        .map((e) => e.seq)
        .reverse(),
    );
    expect(first.next).toBe(likes.at(-2)!.seq);
    const second = (await auditor('GET', `/api/admin/events?type=ItemLiked&order=desc&limit=2&before=${first.next}`))
      .body;
    expect(second.events.every((e: Row) => e.type === 'ItemLiked')).toBe(true);
    expect(seqs(second)).toEqual(
      likes
        .slice(-4, -2)
        .map((e) => e.seq)
        .reverse(),
    );
  });

  it('refuses cursors and limits that are not seqs or in range', async () => {
    for (const [query, message] of [
      ['after=-1', 'after must be a seq'],
      ['after=x', 'after must be a seq'],
      ['before=1.5', 'before must be a seq'],
      ['limit=0', ''],
      ['limit=1001', ''],
      ['order=sideways', "order must be 'asc' or 'desc'"],
    ] as const) {
      const res = await auditor('GET', `/api/admin/events?${query}`);
      expect(res.status, query).toBe(400);
      expect(JSON.stringify(res.body)).toContain(message);
    }
  });
});

describe('the room, as the auditor paces itself by it (decision 159)', () => {
  it("counts a guest's request, and neither an auditor's reads nor an admin's", async () => {
    const lastAsked = () => Number(Atomics.load(t.server.deps.auditorPace.clock, 0));
    const guest = client(t.url, await t.login('guest'));
    const admin = client(t.url, await t.login('admin'));
    Atomics.store(t.server.deps.auditorPace.clock, 0, 0n);
    await auditor('GET', '/api/admin/events?limit=1');
    await admin('GET', '/api/admin/stories/pending');
    expect(lastAsked()).toBe(0);
    const asked = Date.now();
    expect((await guest('GET', '/api/gallery')).status).toBe(200);
    expect(lastAsked()).toBeGreaterThanOrEqual(asked);
  });
});
