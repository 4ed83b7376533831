import type pg from 'pg';
import type { Socket } from 'socket.io-client';
import { closeSockets, openSockets, spread, startApp } from './support.ts';

const CLIENTS = Number(process.env.BENCH_CLIENTS ?? 1000);
const MISSED = 300;

interface Batch {
  upTo: number;
  refetch: boolean;
  messages: unknown[];
}

/** Opens `count` sockets, 50 at a time; resolves with each one's first sync:batch. */
async function openAll(url: string, token: string, since: number[] | undefined, sockets: Socket[]) {
  const batches: Batch[] = [];
  const arrivals: number[] = [];
  const started = performance.now();
  const auths = Array.from({ length: CLIENTS }, (_, n) => ({ token, ...(since ? { since: since[n] } : {}) }));
  await openSockets(sockets, url, auths, 'sync:batch', (n, batch) => {
    batches[n] = batch as Batch;
    arrivals.push(performance.now() - started);
  });
  return { batches, arrivals, seconds: (performance.now() - started) / 1000 };
}

const commits = async (pool: pg.Pool) =>
  (
    await pool.query<{ n: number }>(
      `SELECT xact_commit::int AS n FROM pg_stat_database WHERE datname = current_database()`,
    )
  ).rows[0]!.n;

/**
 * A reconnect storm (issue 9): CLIENTS screens are away while MISSED events happen, then all come back
 * at once. Ours: each reconnects with `since` and is sent what it missed from the outbox. The naive way,
 * in the same run: each reconnects without a position and loads the gallery's first page again.
 */
export async function benchReconnect(pool: pg.Pool, databaseUrl: string) {
  const app = await startApp(databaseUrl, { LOG_LEVEL: 'info' });
  const base = app.base;
  const sockets: Socket[] = [];
  try {
    const admin = await app.admin();
    const call = (method: string, url: string, token: string, body?: unknown) =>
      app.call(method, url, token, body).then(async (r) => {
        await r.arrayBuffer();
        return { status: r.status };
      });
    const guests = await app.guests(20);
    const stories: number[] = [];
    for (let i = 0; i < 10; i++) stories.push(await app.approvedStory(guests[i]!, admin, `Storm ${i}`));

    // everyone is here and knows where the log stands; then everyone is away
    const first = await openAll(base, guests[0]!, undefined, sockets);
    const positions = first.batches.map((b) => b.upTo);
    closeSockets(sockets);

    // MISSED events while they are away: comments (one message each) and likes of different items
    let made = 0;
    for (let i = 0; made < MISSED; i++) {
      const guest = guests[i % guests.length]!;
      const story = stories[i % stories.length]!;
      const r =
        i % 2
          ? await call('POST', `/api/stories/${story}/comments`, guest, {
              authorName: 'Kim',
              content: `While away ${i}`,
            })
          : await call('POST', `/api/stories/${story}/like`, guest);
      if (r.status < 300) made++;
      if (i > MISSED * 4) throw new Error(`only ${made} events could be made (last answer ${r.status})`);
    }

    const before = await commits(pool);
    const ours = await openAll(base, guests[0]!, positions, sockets);
    const oursQueries = ((await commits(pool)) - before) / CLIENTS;
    const carried = ours.batches.reduce((n, b) => n + b.messages.length, 0) / CLIENTS;
    const refetched = ours.batches.filter((b) => b.refetch).length;
    closeSockets(sockets);

    // the naive way: no position, so every screen loads its data again
    const naiveBefore = await commits(pool);
    const naiveStarted = performance.now();
    const naiveDone: number[] = [];
    const naive = await openAll(base, guests[0]!, undefined, sockets);
    await Promise.all(
      Array.from({ length: CLIENTS }, async () => {
        await call('GET', '/api/gallery?page=1', guests[0]!);
        naiveDone.push(performance.now() - naiveStarted);
      }),
    );
    const naiveQueries = ((await commits(pool)) - naiveBefore) / CLIENTS;
    expect(naive.batches.length === CLIENTS);

    const row = (name: string, arrivals: number[], queries: number, extra: string) => {
      const { p50, p95, max } = spread(arrivals);
      return `| ${name} | ${p50.toFixed(0)} ms | ${p95.toFixed(0)} ms | ${max.toFixed(0)} ms | ${queries.toFixed(2)} | ${extra} |`;
    };
    return [
      `### Reconnect storm: ${CLIENTS} screens come back at once after missing ${MISSED} events`,
      '',
      'Time from the first reconnect until each screen has caught up (ours: its `sync:batch`; naive: its',
      'gallery page loaded again), and database transactions per reconnect (`pg_stat_database.xact_commit`).',
      '',
      '| way | p50 | p95 | last | DB transactions per reconnect | |',
      '|---|---:|---:|---:|---:|---|',
      row(
        'ours: reconnect with `since`, missed messages from the outbox',
        ours.arrivals,
        oursQueries,
        `${carried.toFixed(0)} messages each, ${refetched} told to refetch`,
      ),
      row('naive: reconnect and refetch the gallery page', naiveDone, naiveQueries, 'no live messages caught up'),
    ].join('\n');
  } finally {
    closeSockets(sockets);
    await app.stop();
  }
}

function expect(ok: boolean) {
  if (!ok) throw new Error('a screen did not get its batch');
}
