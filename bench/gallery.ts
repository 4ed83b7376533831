import { setTimeout as sleep } from 'node:timers/promises';
import autocannon from 'autocannon';
import type pg from 'pg';
import type { DomainEvent, LegacyEvent } from '#events/catalog.ts';
import { EventStore } from '#events/store.ts';
import { seededArtwork, spread, startServer, withServers } from './support.ts';

const ITEMS = 10_000;
const CONNECTIONS = 50;
const SECONDS = Number(process.env.BENCH_SECONDS ?? 5) * 2;

async function seed(pool: pg.Pool) {
  const store = new EventStore(pool);
  const now = new Date().toISOString();
  const meta = { role: 'system' as const, now };
  let next = 0;
  await Promise.all(
    Array.from({ length: 8 }, async () => {
      for (let i = next++; i < ITEMS; i = next++) {
        const id = 1_000_000 + i;
        const events: Array<DomainEvent | LegacyEvent> =
          i % 3 === 0
            ? [
                {
                  type: 'StorySubmitted',
                  schemaVersion: 1,
                  data: {
                    storyId: id,
                    title: `Story ${i}`,
                    content: `Memory number ${i} of a great colleague`,
                    authorName: `Author ${i % 97}`,
                    emailRef: null,
                    isAnonymous: false,
                    submittedAt: now,
                  },
                },
                { type: 'StoryApproved', data: { storyId: id, adminNotesRef: null, approvedAt: now } },
              ]
            : [
                {
                  type: 'ArtworkSubmitted',
                  schemaVersion: 1,
                  data: seededArtwork(id, now, {
                    title: `Artwork ${i}`,
                    description: 'Seeded',
                    artistName: `Artist ${i % 89}`,
                  }),
                },
                { type: 'ArtworkApproved', data: { artworkId: id, adminNotesRef: null, approvedAt: now } },
              ];
        await store.append(`${events[0]!.type.startsWith('Story') ? 'story' : 'artwork'}-${id}`, 0, events, meta);
      }
    }),
  );
}

const PAGES = 500;

async function load(url: string, headers: Record<string, string>) {
  const times: number[] = [];
  const instance = autocannon({
    url,
    connections: CONNECTIONS,
    duration: SECONDS,
    headers,
    requests: [
      {
        setupRequest: (req) => ({
          ...req,
          path: `${new URL(url).pathname}?page=${1 + Math.floor(Math.random() * PAGES)}`,
        }),
      },
    ],
  });
  instance.on('response', (_client: unknown, status: number, _bytes: number, ms: number) => {
    if (status === 200) times.push(ms);
  });
  const result = await instance;
  const { p50, p95 } = spread(times);
  return {
    p50,
    p95,
    rps: result.requests.average,
    errors: result.non2xx + result.errors,
  };
}

/** GET /api/gallery with 10,000 approved items under 50 concurrent clients, against the naive way. */
export async function benchGallery(pool: pg.Pool, databaseUrl: string) {
  await seed(pool);
  const naiveServer = { script: 'bench/naiveGalleryServer.ts', env: { DATABASE_URL: databaseUrl } };
  return withServers(databaseUrl, naiveServer, async (app, naive) => {
    const base = app.base;
    for (;;) {
      const { rows } = await pool.query(`SELECT count(*)::int AS n FROM catalog_items WHERE status = 'approved'`);
      if (rows[0].n >= ITEMS) break;
      await sleep(200);
    }
    const sessionToken = await app.login();
    // The bare server's bytes: exactly what the app answers for each page.
    const lines: string[] = [];
    for (let page = 1; page <= PAGES; page++) {
      const res = await fetch(`${base}/api/gallery?page=${page}`, { headers: { 'x-session-token': sessionToken } });
      lines.push(JSON.stringify({ page, body: await res.text() }));
    }
    const bare = await startServer('bench/bareJsonServer.ts', {}, lines.join('\n'));
    let ours, bareResult;
    try {
      // the app's cache warms with the fetches above, as it would in the first seconds of a reveal
      ours = await load(`${base}/api/gallery`, { 'x-session-token': sessionToken });
      bareResult = await load(`${bare.base}/gallery`, {});
    } finally {
      await bare.stop();
    }
    const baseline = await load(`${naive.base}/gallery`, {});
    const row = (name: string, r: typeof ours) =>
      `| ${name} | ${r.p50.toFixed(1)} ms | ${r.p95.toFixed(1)} ms | ${r.rps.toFixed(0)} | ${r.errors} |`;
    return [
      `### GET /api/gallery: ${ITEMS.toLocaleString('en')} approved items, ${CONNECTIONS} concurrent clients (autocannon, ${SECONDS} s, random pages 1–${PAGES})`,
      '',
      '| server | p50 | p95 | requests/s | errors |',
      '|---|---:|---:|---:|---:|',
      row('GET /api/gallery (session, catalog position, page bytes cached per position)', ours),
      row('baseline: bare Node HTTP server, the same JSON bytes from memory (no session, no database)', bareResult),
      row('naive: all approved rows, shuffled in JS, sliced (no session)', baseline),
      '',
      `requests/s of the app as a share of the bare server: ${((ours.rps / bareResult.rps) * 100).toFixed(0)}%`,
    ].join('\n');
  });
}
