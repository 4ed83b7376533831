import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import autocannon from 'autocannon';
import type pg from 'pg';
import { freePort } from '#db/postgres.ts';
import type { DomainEvent } from '#events/catalog.ts';
import { EventStore } from '#events/store.ts';
import { percentile, startProcess } from './support.ts';

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
        const events: DomainEvent[] =
          i % 3 === 0
            ? [
                {
                  type: 'StorySubmitted',
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
                { type: 'StoryApproved', data: { storyId: id, adminNotes: null, approvedAt: now } },
              ]
            : [
                {
                  type: 'ArtworkSubmitted',
                  data: {
                    artworkId: id,
                    title: `Artwork ${i}`,
                    description: 'Seeded',
                    tags: null,
                    artistName: `Artist ${i % 89}`,
                    emailRef: 1,
                    isFromCanvas: false,
                    image: {
                      key: `artworks/${id}/original.jpg`,
                      contentType: 'image/jpeg',
                      width: 800,
                      height: 600,
                      bytes: 1,
                    },
                    submittedAt: now,
                  },
                },
                { type: 'ArtworkApproved', data: { artworkId: id, adminNotes: null, approvedAt: now } },
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
  times.sort((a, b) => a - b);
  return {
    p50: percentile(times, 50),
    p95: percentile(times, 95),
    rps: result.requests.average,
    errors: result.non2xx + result.errors,
  };
}

/** GET /api/gallery with 10,000 approved items under 50 concurrent clients, against the naive way. */
export async function benchGallery(pool: pg.Pool, databaseUrl: string) {
  await seed(pool);
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'tribute-bench-data-'));
  const [appPort, naivePort] = [await freePort(), await freePort()];
  const app = await startProcess(['api/main.ts'], {
    PORT: String(appPort),
    DATABASE_URL: databaseUrl,
    DATA_DIR: dataDir,
    GALLERY_PASSWORD: 'bench',
  });
  const naive = await startProcess(['bench/naiveGalleryServer.ts'], {
    PORT: String(naivePort),
    DATABASE_URL: databaseUrl,
  });
  try {
    const base = `http://127.0.0.1:${appPort}`;
    for (;;) {
      const { rows } = await pool.query(`SELECT count(*)::int AS n FROM catalog_items WHERE status = 'approved'`);
      if (rows[0].n >= ITEMS) break;
      await new Promise((r) => setTimeout(r, 200));
    }
    const login = await fetch(`${base}/api/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ password: 'bench' }),
    });
    const { sessionToken } = (await login.json()) as { sessionToken: string };
    // The bare server's bytes: exactly what the app answers for each page.
    const lines: string[] = [];
    for (let page = 1; page <= PAGES; page++) {
      const res = await fetch(`${base}/api/gallery?page=${page}`, { headers: { 'x-session-token': sessionToken } });
      lines.push(JSON.stringify({ page, body: await res.text() }));
    }
    const barePort = await freePort();
    const bare = await startProcess(['bench/bareJsonServer.ts'], { PORT: String(barePort) }, lines.join('\n'));
    let ours, bareResult;
    try {
      // the app's cache warms with the fetches above, as it would in the first seconds of a reveal
      ours = await load(`${base}/api/gallery`, { 'x-session-token': sessionToken });
      bareResult = await load(`http://127.0.0.1:${barePort}/gallery`, {});
    } finally {
      bare.kill('SIGTERM');
    }
    const baseline = await load(`http://127.0.0.1:${naivePort}/gallery`, {});
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
  } finally {
    app.kill('SIGTERM');
    naive.kill('SIGTERM');
    await Promise.all([new Promise((r) => app.once('exit', r)), new Promise((r) => naive.once('exit', r))]);
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}
