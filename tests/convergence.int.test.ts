import { isDeepStrictEqual } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { catchUpKey } from '../api/realtime/liveTail.ts';
import type { LiveMessage } from '../contract/live.ts';
import { ADMIN_KEY, client } from './support/server.ts';
import { login, openScreen, startCluster, type Cluster, type Screen } from './support/convergence.ts';
import { waitFor } from './support/wait.ts';

/**
 * Issue 9's convergence run: two API processes and a worker on one PostgreSQL; 20 screens running
 * the web app's live code; a random workload of approvals (short and 9,000-character stories),
 * likes, unlikes, comments and deletes; and faults in the middle of it: every LISTEN connection
 * terminated, PostgreSQL restarted, one API process killed with SIGKILL and started again. At the end
 * every screen must show what the read model holds, and no live message may be lost.
 *
 * Issue 21 adds forgetting: stories deleted by the admin, people (a story and comments on the watched
 * stories, under their own email and name) erased by email, and screens that drop their connection
 * and catch up, from the process's memory and, after the SIGKILL, from the outbox. Losses are counted
 * on the screens (what each shows against the read model), and no screen may be sent an erased
 * person's words after their erasure: lost 0, erased words seen 0.
 *
 * CONVERGENCE_SCALE multiplies the workload (bench/convergence.ts runs it larger).
 */
const SCALE = Number(process.env.CONVERGENCE_SCALE ?? 1);
const OPERATIONS = Math.round(500 * SCALE);
const SCREENS = 20;
const WATCHED = 10;

let cluster: Cluster;
const screens: Screen[] = [];
beforeAll(async () => {
  cluster = await startCluster();
}, 120_000);
afterAll(async () => {
  for (const screen of screens) screen.close();
  await cluster?.close();
});

/** A screen's story around a position: what it applied, the batches and the connections near it. */
function storyAround(screen: Screen, position: number): string {
  const near = screen.story.flatMap((entry, i) =>
    entry.near !== undefined && Math.abs(entry.near - position) <= 10 ? [i] : [],
  );
  const from = Math.max(0, (near[0] ?? screen.story.length) - 5);
  const to = Math.min(screen.story.length, (near.at(-1) ?? screen.story.length) + 6);
  const lines = screen.story.slice(from, to).map((entry) => entry.line);
  return `\n${screen.name}'s story near ${position}:\n${lines.slice(-60).join('\n')}\n`;
}

/** A small seeded generator, so a failing run can be repeated. */
function random(seed: number) {
  let x = seed >>> 0 || 1;
  return () => {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    return (x >>> 0) / 2 ** 32;
  };
}

describe('live delivery under concurrency and faults', () => {
  it('ends with every screen equal to the read model, and no message lost', { timeout: 600_000 }, async () => {
    const seed = Number(process.env.CONVERGENCE_SEED ?? Date.now() % 100_000);
    const rand = random(seed);
    console.log(`convergence seed ${seed}`);
    const pick = <T>(list: readonly T[]) => list[Math.floor(rand() * list.length)]!;
    const apiA = await cluster.start('api-a', 'api');
    let apiB = await cluster.start('api-b', 'api');
    await cluster.start('worker', 'worker');
    const urls = () => [apiA.url, apiB.url];

    const adminToken = await login(apiA.url, 'admin');
    const admin = (url = apiA.url) => client(url, adminToken);
    const guests = await Promise.all(Array.from({ length: 24 }, (_, i) => login(urls()[i % 2]!, 'guest')));
    const story = (content: string) => ({ content, authorName: 'Sam', email: 'sam@example.com' });

    // the watched stories, approved before the screens open
    const watched: number[] = [];
    for (let i = 0; i < WATCHED; i++) {
      const created = await client(apiA.url, guests[i]!)('POST', '/api/stories', story(`Watched ${i}`));
      await admin()('PATCH', `/api/admin/stories/${created.body.id}`, { status: 'approved' });
      watched.push(created.body.id);
    }
    for (let i = 0; i < SCREENS; i++) {
      const isAdmin = i < 2;
      const url = urls()[i % 2]!;
      const token = isAdmin ? await login(url, 'admin') : guests[i]!;
      screens.push(openScreen(`screen-${i}`, url, token, isAdmin, { stories: watched }));
    }
    await waitFor(async () => screens.every((s) => s.firstUpTo !== undefined), 30_000);

    // the workload, with faults at fixed points in it
    const comments: Array<{ story: number; id: number }> = [];
    const pending: number[] = [];
    const approved: number[] = [];
    // people who sent a story and commented under their own email and name, then asked to be erased
    const people: Array<{ n: number; email: string; words: string; guest: string }> = [];
    const erased: Array<{ email: string; words: string; story?: number }> = [];
    const personStories = new Map<string, number>();
    const failures: Array<{ at: number; status: number; what: string }> = [];
    const statuses = new Map<string, number>();
    let databaseBackAt = Infinity;
    const faults = new Map<number, () => Promise<void>>([
      [
        Math.round(OPERATIONS * 0.2),
        async () => {
          await cluster.pool.query(
            `SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE pid <> pg_backend_pid() AND query ILIKE 'LISTEN%'`,
          );
        },
      ],
      [
        Math.round(OPERATIONS * 0.45),
        async () => {
          await cluster.db.restart!();
          databaseBackAt = Date.now();
        },
      ],
      [
        Math.round(OPERATIONS * 0.7),
        async () => {
          await apiB.kill('SIGKILL');
          await new Promise((r) => setTimeout(r, 500));
          apiB = await cluster.start('api-b', 'api', apiB.port);
        },
      ],
    ]);
    // screens that drop their connection and come back with their position while the workload goes on
    for (const at of [0.3, 0.55, 0.85]) {
      faults.set(Math.round(OPERATIONS * at) + 1, async () => {
        for (const screen of screens.filter((_, i) => i % 3 === Math.round(at * 10) % 3)) {
          screen.reconnect(200 + Math.floor(rand() * 800));
        }
      });
    }

    async function operation(n: number) {
      const guest = client(pick(urls()), pick(guests));
      const target = pick(watched);
      const roll = rand();
      let answer: { status: number };
      let what: string;
      if (roll < 0.4) {
        what = 'like';
        answer = await guest(rand() < 0.7 ? 'POST' : 'DELETE', `/api/stories/${target}/likes`);
      } else if (roll < 0.44 && people.length < OPERATIONS / 25) {
        what = 'person';
        const token = pick(guests);
        const person = { n, email: `person${n}@example.com`, words: `Erasable words ${n} qzx`, guest: token };
        const as = client(pick(urls()), token);
        answer = await as('POST', '/api/stories', {
          content: `${person.words} story`,
          authorName: `Person ${n} Qzx`,
          email: person.email,
        });
        const body = (answer as { body?: { id?: number } }).body;
        if (answer.status === 201 && body?.id) {
          pending.push(body.id);
          personStories.set(person.email, body.id);
          await as('POST', `/api/stories/${target}/comments`, {
            authorName: `Person ${n} Qzx`,
            content: `${person.words} comment`,
          });
          people.push(person);
        }
      } else if (roll < 0.47 && people.length > 0) {
        what = 'erase';
        const person = people.shift()!;
        answer = await admin(pick(urls()))('POST', '/api/admin/erase', { email: person.email });
        if (answer.status === 200) {
          erased.push({ email: person.email, words: person.words, story: personStories.get(person.email) });
        }
      } else if (roll < 0.5 && approved.length > 0) {
        what = 'delete';
        const [id] = approved.splice(Math.floor(rand() * approved.length), 1);
        answer = await admin(pick(urls()))('DELETE', `/api/stories/${id}`, undefined, {
          authorization: `Bearer ${ADMIN_KEY}`,
        });
      } else if (roll < 0.65) {
        what = 'comment';
        answer = await guest('POST', `/api/stories/${target}/comments`, { authorName: 'Kim', content: `Note ${n}` });
        const body = (answer as { body?: { id?: number } }).body;
        if (answer.status === 201 && body?.id) comments.push({ story: target, id: body.id });
      } else if (roll < 0.72 && comments.length) {
        what = 'remove comment';
        const [gone] = comments.splice(Math.floor(rand() * comments.length), 1);
        answer = await admin(pick(urls()))('DELETE', `/api/stories/comments/${gone!.id}`, undefined, {
          authorization: `Bearer ${ADMIN_KEY}`,
        });
      } else if (roll < 0.9) {
        what = 'submit';
        const content = rand() < 0.3 ? `Long ${n} `.padEnd(9000, 'z') : `Story ${n}`;
        answer = await guest('POST', '/api/stories', story(content));
        const body = (answer as { body?: { id?: number } }).body;
        if (answer.status === 201 && body?.id) pending.push(body.id);
      } else if (pending.length) {
        what = 'review';
        const id = pending.shift()!;
        const status = rand() < 0.8 ? 'approved' : 'rejected';
        answer = await admin(pick(urls()))('PATCH', `/api/admin/stories/${id}`, { status });
        if (answer.status === 200 && status === 'approved') approved.push(id);
      } else {
        what = 'like';
        answer = await guest('POST', `/api/stories/${target}/likes`);
      }
      statuses.set(`${what} ${answer.status}`, (statuses.get(`${what} ${answer.status}`) ?? 0) + 1);
      if (answer.status >= 500) failures.push({ at: Date.now(), status: answer.status, what });
    }

    const started = Date.now();
    let next = 0;
    const worker = async () => {
      while (next < OPERATIONS) {
        const n = next++;
        const fault = faults.get(n);
        if (fault) await fault();
        await operation(n).catch((error: Error) => failures.push({ at: Date.now(), status: 0, what: error.message }));
      }
    };
    await Promise.all(Array.from({ length: 6 }, worker));
    const workloadSeconds = (Date.now() - started) / 1000;

    // quiet: the worker has sealed and projected everything, and every screen has caught up
    const final = await waitFor(async () => {
      const { rows } = await cluster.pool.query<{ sealed: number; events: number; catalog: number }>(
        `SELECT (SELECT count(*) FROM event_chain)::int AS sealed, (SELECT count(*) FROM events)::int AS events,
                catalog_position()::int AS catalog`,
      );
      const r = rows[0]!;
      return r.sealed === r.events && r.catalog === r.sealed ? r.catalog : false;
    }, 60_000).catch((error: Error) => {
      for (const p of cluster.processes.values()) console.log(p.report());
      throw error;
    });
    const lastFor = async (admin: boolean) =>
      (
        await cluster.pool.query<{ at: number }>(
          // the last message of a screen's audience: a sender's own mine:changed is not an admin's
          `SELECT coalesce(max(position), 0)::int AS at FROM live_messages
           WHERE room = 'everyone' OR ($1 AND room = 'admins')`,
          [admin],
        )
      ).rows[0]!.at;
    const [lastEveryone, lastAdmins] = [await lastFor(false), await lastFor(true)];
    await waitFor(
      async () =>
        screens.every(
          (s) =>
            (s.live.sequence.lastPosition ?? 0) >= (s.admin ? lastAdmins : lastEveryone) &&
            s.queryClient.isFetching() === 0,
        ),
      60_000,
    );

    // no message lost: every outbox message for a screen's audience after its first batch was applied,
    // or lay inside a range a refetch batch covered
    const { rows: outbox } = await cluster.pool.query<{
      position: number;
      event: string;
      room: string;
      payload: LiveMessage['payload'];
    }>(`SELECT position::int, event, room, payload FROM live_messages ORDER BY position, ord`);
    // every message the outbox holds at a position, for a lost one's report: what else that step sent
    const outboxAt = (position: number) =>
      `the outbox at ${position}:\n${outbox
        .filter((m) => m.position === position)
        .map((m) => `${m.room} ${m.event} ${JSON.stringify(m.payload)}`)
        .join('\n')}\n`;
    let sent = 0;
    let delivered = 0;
    let lost = 0;
    let resynced = 0;
    let coalesced = 0;
    for (const s of screens) {
      const applied = new Set(s.applied.map((a) => `${a.position}:${a.event}`));
      const covered = (p: number) => s.refetched.some(([from, to]) => p > from && p <= to);
      // a counter (a like total, the queue) left out of a catch-up batch because a later one in it replaced it
      const superseded = (m: (typeof outbox)[number]) => {
        const key = catchUpKey({ event: m.event, payload: m.payload } as LiveMessage);
        return s.caughtUp.some(
          (b) =>
            m.position > b.since &&
            m.position <= b.upTo &&
            key !== undefined &&
            b.messages.some((later) => later.payload.position > m.position && catchUpKey(later) === key),
        );
      };
      // a screen's audience: everyone's messages, and the admins' for an admin; a sender's own
      // `mine:changed` stands outside every sequence (decision 087) and is asserted in api/mine
      const audience = (room: string) => room === 'everyone' || (s.admin && room === 'admins');
      const mine = outbox.filter((m) => m.position > s.firstUpTo! && audience(m.room));
      sent += mine.length;
      delivered += s.applied.length;
      resynced += s.live.sequence.resyncs;
      const unapplied = mine.filter((m) => !applied.has(`${m.position}:${m.event}`) && !covered(m.position));
      const missing = unapplied.filter((m) => !superseded(m));
      coalesced += unapplied.length - missing.length;
      lost += missing.length;
      expect(
        missing.slice(0, 5),
        `${s.name} lost messages${missing.length ? storyAround(s, missing[0]!.position) + outboxAt(missing[0]!.position) : ''}`,
      ).toEqual([]);
    }

    // every screen shows what the read model holds
    const reader = client(apiA.url, guests[0]);
    const galleryNow = (await reader('GET', '/api/gallery?page=1')).body as { items: unknown[] };
    const queueNow = (await admin()('GET', '/api/admin/queue')).body;
    const server = new Map<number, { status: number; likeCount?: number; commentCount?: number; comments: number[] }>();
    for (const id of watched) {
      const item = await reader('GET', `/api/stories/${id}`);
      const list = await reader('GET', `/api/stories/${id}/comments`);
      server.set(id, {
        status: item.status,
        likeCount: item.body.likeCount,
        commentCount: item.body.commentCount,
        comments: item.status === 200 ? (list.body as Array<{ id: number }>).map((c) => c.id).sort() : [],
      });
    }
    const counters = (items: unknown[]) =>
      (items as Array<{ kind: string; id: number; likeCount: number; commentCount: number }>).map(
        (i) => `${i.kind}:${i.id}:${i.likeCount}:${i.commentCount}`,
      );
    // what each screen shows against the read model, counted before the checks below say where
    const lostOnScreens: string[] = [];
    for (const s of screens) {
      const data = <T>(key: unknown[]) => s.queryClient.getQueryData<T>(key);
      const shown = counters(data<{ items: unknown[] }>(['gallery', { page: 1, q: '' }])?.items ?? []);
      const held = counters(galleryNow.items);
      for (const c of shown.filter((c) => !held.includes(c))) lostOnScreens.push(`${s.name} gallery shows ${c}`);
      for (const c of held.filter((c) => !shown.includes(c))) lostOnScreens.push(`${s.name} gallery lacks ${c}`);
      for (const id of watched) {
        const expected = server.get(id)!;
        const item = data<{ likeCount: number; commentCount: number }>(['stories', id]);
        if (item?.likeCount !== expected.likeCount || item?.commentCount !== expected.commentCount) {
          lostOnScreens.push(
            `${s.name} story ${id} ${item?.likeCount}/${item?.commentCount} for ${expected.likeCount}/${expected.commentCount}`,
          );
        }
        const list = (data<Array<{ id: number }>>(['stories', id, 'comments']) ?? []).map((c) => c.id).sort();
        if (!isDeepStrictEqual(list, expected.comments)) {
          lostOnScreens.push(
            `${s.name} comments of ${id} ${JSON.stringify(list)} for ${JSON.stringify(expected.comments)}`,
          );
        }
      }
      if (s.admin && !isDeepStrictEqual(data(['admin', 'queue']), queueNow)) {
        lostOnScreens.push(
          `${s.name} queue ${JSON.stringify(data(['admin', 'queue']))} for ${JSON.stringify(queueNow)}`,
        );
      }
    }

    // no screen was sent an erased person's words after their erasure: not live, not in a catch-up,
    // and none is left in any screen's cache
    const erasedAt = new Map<string, number>();
    for (const e of erased) {
      const { rows } = await cluster.pool.query<{ seq: number }>(
        `SELECT c.seq::int FROM erased_streams s
         JOIN events e ON e.stream_id = 'subject-' || s.subject_id AND e.type = 'SubjectErased'
         JOIN event_chain c ON c.position = e.position WHERE s.stream_id = $1`,
        [`story-${e.story}`],
      );
      if (rows[0]) erasedAt.set(e.words, rows[0].seq);
    }
    let erasedWordsSeen = 0;
    let erasedWordsCached = 0;
    for (const s of screens) {
      for (const [words, at] of erasedAt) {
        erasedWordsSeen += s.words.filter((w) => w.position > at && w.text.includes(words)).length;
        erasedWordsSeen += s.caughtUp.filter((b) => b.upTo >= at && JSON.stringify(b.messages).includes(words)).length;
        const cached = JSON.stringify(
          s.queryClient
            .getQueryCache()
            .getAll()
            .map((q) => q.state.data),
        );
        if (cached.includes(words)) erasedWordsCached++;
      }
    }
    const refetches = screens.reduce((n, s) => n + s.refetched.length, 0);
    const catchUps = screens.reduce((n, s) => n + s.caughtUp.length, 0);
    console.log(
      `convergence forgetting: people erased ${erasedAt.size}, stories deleted ${statuses.get('delete 200') ?? 0}, ` +
        `catch-ups ${catchUps}, refetches ${refetches}; lost on screens ${lostOnScreens.length}, erased words seen ${erasedWordsSeen}, ` +
        `left in a screen's cache ${erasedWordsCached}`,
    );
    expect(erasedAt.size).toBe(erased.length);
    expect(lostOnScreens).toEqual([]);
    expect(erasedWordsSeen).toBe(0);
    // one in three runs left an erased person's comment on every screen: the admin had deleted their
    // story first, which blanked the name the erasure looked for (decision 085)
    expect(erasedWordsCached).toBe(0);

    for (const s of screens) {
      const data = <T>(key: unknown[]) => s.queryClient.getQueryData<T>(key);
      expect(counters(data<{ items: unknown[] }>(['gallery', { page: 1, q: '' }])!.items), s.name).toEqual(
        counters(galleryNow.items),
      );
      for (const id of watched) {
        const expected = server.get(id)!;
        const item = data<{ likeCount: number; commentCount: number }>(['stories', id]);
        expect({ id, likeCount: item?.likeCount, commentCount: item?.commentCount }, s.name).toEqual({
          id,
          likeCount: expected.likeCount,
          commentCount: expected.commentCount,
        });
        const list = data<Array<{ id: number }>>(['stories', id, 'comments']) ?? [];
        expect(list.map((c) => c.id).sort(), `${s.name} comments of ${id}`).toEqual(expected.comments);
      }
      if (s.admin) expect(data(['admin', 'queue']), s.name).toEqual(queueNow);
    }

    // once the database was back, no request failed
    const afterBack = failures.filter((f) => f.at > databaseBackAt + 3000 && f.status !== 0);
    console.log(
      `convergence (seed ${seed}): ${OPERATIONS} operations in ${workloadSeconds.toFixed(1)} s, log at seq ${final}; ` +
        `messages sent ${sent}, delivered ${delivered}, resynced ${resynced}, coalesced in catch-up ${coalesced}, lost ${lost}; ` +
        `requests failed ${failures.length} (${failures.filter((f) => f.at < databaseBackAt + 3000).length} while the database restarted); ` +
        `answers: ${[...statuses].map(([k, v]) => `${k}: ${v}`).join(', ')}`,
    );
    expect(afterBack).toEqual([]);
    expect(lost).toBe(0);
  });
});
