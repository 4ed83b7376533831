import type pg from 'pg';
import type { ChainRecord } from '#events/canonical.ts';
import { registry } from '#events/catalog.ts';
import { EventStore } from '#events/store.ts';
import { chainSealer } from '#projections/chain/chainSealer.ts';
import { runBatch } from '#projections/runner.ts';
import { SNAPSHOT_EVERY, TimeTravel } from '#projections/timeTravel.ts';
import { seededArtwork, spread } from './support.ts';

const EVENTS = Number(process.env.BENCH_TIME_TRAVEL_EVENTS ?? 100_000);
const QUESTIONS = 10;
const DAY = '2025-09-12';
const LEGACY = new Set(['ArtworkSubmitted', 'ArtworkApproved', 'CommentPosted']);

/** A row of the log as the bench writes it: the chain's fields without the place and hashes. */
type Row = Pick<ChainRecord, 'streamId' | 'version' | 'type' | 'schemaVersion' | 'data' | 'metadata'>;

/** A log like a long party: submissions and approvals spread through it, mostly likes, some comments. */
function* party(total: number): Generator<Row> {
  const at = new Date('2025-09-12T18:00:00Z').toISOString();
  const meta = { role: 'guest', now: at };
  // submissions, approvals and comments as the log held them before names, words and admin notes
  // left it (v1, decisions 050 and 090)
  const row = (streamId: string, version: number, type: string, data: unknown, m: unknown = meta): Row => {
    const prepared = registry.prepare(type, data, LEGACY.has(type) ? 1 : undefined);
    return { streamId, version, type, schemaVersion: prepared.schemaVersion, data: prepared.data, metadata: m };
  };
  const approved: number[] = [];
  let artworks = 0;
  let comments = 0;
  let likes = 0;
  for (let i = 0; i < total;) {
    if (i % 33 === 0) {
      const id = ++artworks;
      yield row(
        `artwork-${id}`,
        1,
        'ArtworkSubmitted',
        seededArtwork(id, at, { title: `Artwork ${id}`, description: null, artistName: 'Bench Artist' }),
      );
      i++;
      if (id % 10 !== 0 && i < total) {
        yield row(
          `artwork-${id}`,
          2,
          'ArtworkApproved',
          { artworkId: id, adminNotes: 'ok', approvedAt: at },
          {
            ...meta,
            role: 'admin',
          },
        );
        approved.push(id);
        i++;
      }
      continue;
    }
    const itemId = approved[(i * 7919) % Math.max(approved.length, 1)] ?? 1;
    if (i % 70 === 0) {
      const id = ++comments;
      yield row(`comment-${id}`, 1, 'CommentPosted', {
        kind: 'artwork',
        itemId,
        commentId: id,
        authorName: 'Guest',
        content: `Comment ${id}`,
        postedAt: at,
      });
    } else {
      const visitorKey = `v${++likes}`;
      yield row(`like-artwork-${itemId}-${visitorKey}`, 1, 'ItemLiked', { kind: 'artwork', itemId, visitorKey });
    }
    i++;
  }
}

export async function insertLog(pool: pg.Pool, total: number) {
  let batch: Row[] = [];
  const flush = async () => {
    await pool.query(
      `INSERT INTO events (stream_id, stream_version, type, schema_version, data, metadata)
       SELECT e->>'streamId', (e->>'version')::bigint, e->>'type', (e->>'schemaVersion')::int, e->'data', e->'metadata'
       FROM jsonb_array_elements($1::jsonb) WITH ORDINALITY AS x(e, n) ORDER BY n`,
      [JSON.stringify(batch)],
    );
    batch = [];
  };
  for (const row of party(total)) {
    batch.push(row);
    if (batch.length === 5000) await flush();
  }
  if (batch.length) await flush();
}

const ms = (from: bigint) => Number(process.hrtime.bigint() - from) / 1e6;
const fmt = (x: number) => (x >= 100 ? x.toFixed(0) : x.toFixed(1));

/**
 * Time travel (`GET /api/gallery?at=SEQ`, decision 033) on a log of 100,000 events: the gallery at 10
 * random seqs with snapshots, against a full replay from 0 for the same seqs; and replay throughput.
 */
export async function benchTimeTravel(pool: pg.Pool, url: string) {
  const store = new EventStore(pool);
  let t = process.hrtime.bigint();
  await insertLog(pool, EVENTS);
  const insertMs = ms(t);
  t = process.hrtime.bigint();
  for (let read = -1; read !== 0;) ({ read } = await runBatch(store, chainSealer, 5000));
  const sealMs = ms(t);
  const head = await TimeTravel.head(pool);

  const baseline = new TimeTravel(url, Number.MAX_SAFE_INTEGER);
  const travel = new TimeTravel(url);
  try {
    // rebuild throughput: the catalog projection folding the whole log into empty tables
    t = process.hrtime.bigint();
    await baseline.fullReplay(head);
    const rebuildMs = ms(t);

    // the first question builds the snapshots on its way (a cold start)
    t = process.hrtime.bigint();
    await travel.page(head, { page: 1, q: '', day: DAY });
    const coldMs = ms(t);

    const seqs = Array.from({ length: QUESTIONS }, (_, i) => 1 + Math.floor(((i * 0.6180339887 + 0.137) % 1) * head));
    const warm: number[] = [];
    const full: number[] = [];
    for (const seq of seqs) {
      t = process.hrtime.bigint();
      await travel.page(seq, { page: 1, q: '', day: DAY });
      warm.push(ms(t));
    }
    for (const seq of seqs) {
      t = process.hrtime.bigint();
      await baseline.fullReplay(seq);
      await baseline.page(seq, { page: 1, q: '', day: DAY });
      full.push(ms(t));
    }
    const [warmSpread, fullSpread] = [spread(warm), spread(full)];
    return [
      `### Time travel: the gallery at a seq (${head.toLocaleString('en')} events, snapshots every ${SNAPSHOT_EVERY})`,
      '',
      '| what | figure |',
      '|---|---|',
      `| \`GET /api/gallery?at=SEQ\` at ${QUESTIONS} random seqs, with snapshots: p50 / p95 | ${fmt(warmSpread.p50)} ms / ${fmt(warmSpread.p95)} ms |`,
      `| baseline, full replay from 0 for the same seqs: p50 / p95 | ${fmt(fullSpread.p50)} ms / ${fmt(fullSpread.p95)} ms |`,
      `| first question after start (replays to the head, keeping snapshots on its way) | ${fmt(coldMs)} ms |`,
      `| rebuild: the catalog projection folding the whole log | ${Math.round(head / (rebuildMs / 1000)).toLocaleString('en')} events/s (${fmt(rebuildMs)} ms) |`,
      `| sealing the chain (RFC 8785 + SHA-256, batches of 5,000) | ${Math.round(head / (sealMs / 1000)).toLocaleString('en')} events/s |`,
      `| writing the log for the bench (bulk INSERT, not appends) | ${fmt(insertMs)} ms |`,
    ].join('\n');
  } finally {
    await baseline.close();
    await travel.close();
  }
}
