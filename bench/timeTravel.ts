import { monitorEventLoopDelay } from 'node:perf_hooks';
import type pg from 'pg';
import { verifyChain } from '#events/chain.ts';
import type { ChainRecord } from '#events/canonical.ts';
import { registry } from '#events/catalog.ts';
import { EventStore } from '#events/store.ts';
import { chainSealer } from '#projections/chain/chainSealer.ts';
import { runBatch } from '#projections/runner.ts';
import { SNAPSHOT_EVERY, TimeTravel } from '#projections/timeTravel.ts';
import { SnapshotKeeper } from '#projections/timeTravel/snapshotKeeper.ts';
import { seededArtwork, spread } from './support.ts';

const EVENTS = Number(process.env.BENCH_TIME_TRAVEL_EVENTS ?? 100_000);
const QUESTIONS = 10;
const DAY = '2025-09-12';
const LEGACY = new Set(['ArtworkSubmitted', 'ArtworkApproved', 'CommentPosted']);

/** A row of the log as the bench writes it: the chain's fields without the place and hashes. */
type Row = Pick<ChainRecord, 'streamId' | 'version' | 'type' | 'schemaVersion' | 'data' | 'metadata'>;

/**
 * A log like a long party: submissions and approvals spread through it, mostly likes, some comments,
 * and a busy mural (a tenth of the events are strokes of 30 points, none erased).
 */
function* party(total: number, approver?: number): Generator<Row> {
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
  let strokes = 0;
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
            ...(approver === undefined ? {} : { actorRef: approver }),
          },
        );
        approved.push(id);
        i++;
      }
      continue;
    }
    const itemId = approved[(i * 7919) % Math.max(approved.length, 1)] ?? 1;
    if (i % 10 === 5) {
      const id = ++strokes;
      const points = Array.from({ length: 30 }, (_, k) => [(id * 37 + k * 11) % 1600, (id * 13 + k * 7) % 800]);
      const data = {
        strokeId: id,
        visitorId: `artist-${id % 50}`,
        tool: 'brush',
        color: '#dc2626',
        size: 12,
        opacity: 100,
      };
      yield row(`mural-stroke-${id}`, 1, 'MuralStrokeDrawn', { ...data, points, drawnAt: at });
    } else if (i % 70 === 0) {
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

/** `approver`: the personal_data name an approval's admin gave at login (none by default). */
export async function insertLog(pool: pg.Pool, total: number, approver?: number) {
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
  for (const row of party(total, approver)) {
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

  const baseline = new TimeTravel(url);
  const keeper = new SnapshotKeeper(url, console);
  let travel = new TimeTravel(url);
  try {
    // rebuild throughput, and the baseline of a first question: the catalog folding the whole log
    t = process.hrtime.bigint();
    await baseline.fullReplay(head);
    const rebuildMs = ms(t);

    // the worker keeps the checkpoints as the log grows (here all at once, as after a bulk import)
    t = process.hrtime.bigint();
    await keeper.keepUp();
    const keepMs = ms(t);
    const { rows: size } = await pool.query<{ versions: string; bytes: string; copies: string; checkpoints: string }>(
      `SELECT (SELECT count(*) FROM time_travel_rows)::text AS versions,
         pg_total_relation_size('time_travel_rows')::text AS bytes,
         (SELECT count(*) FROM time_travel_checkpoints)::text AS checkpoints,
         (SELECT count(*) FROM time_travel_checkpoints c JOIN time_travel_rows v
            ON int8range(v.from_seq, v.to_seq) @> c.seq)::text AS copies`,
    );
    const { versions, bytes, copies, checkpoints } = size[0]!;

    // a server's first question after its start: a checkpoint from the database and the events after it
    const coldAt = head - 1;
    t = process.hrtime.bigint();
    await travel.page(coldAt, { page: 1, q: '', day: DAY });
    const coldMs = ms(t);

    const seqs = Array.from({ length: QUESTIONS }, (_, i) => 1 + Math.floor(((i * 0.6180339887 + 0.137) % 1) * head));
    const warm: number[] = [];
    const firsts: number[] = [];
    const full: number[] = [];
    for (const seq of seqs) {
      t = process.hrtime.bigint();
      await travel.page(seq, { page: 1, q: '', day: DAY });
      warm.push(ms(t));
    }
    // each the first question of a freshly started server
    for (const seq of seqs.slice(0, 3)) {
      await travel.close();
      travel = new TimeTravel(url);
      t = process.hrtime.bigint();
      await travel.page(seq, { page: 1, q: '', day: DAY });
      firsts.push(ms(t));
    }
    for (const seq of seqs) {
      t = process.hrtime.bigint();
      await baseline.fullReplay(seq);
      await baseline.page(seq, { page: 1, q: '', day: DAY });
      full.push(ms(t));
    }
    const [warmSpread, fullSpread] = [spread(warm), spread(full)];

    // verify on the API's event loop: the longest stall another request would meet, in slices and not
    const stall = async (yieldEvery?: number) => {
      const delay = monitorEventLoopDelay({ resolution: 1 });
      delay.enable();
      const started = process.hrtime.bigint();
      const result = await verifyChain(pool, { yieldEvery });
      const took = ms(started);
      delay.disable();
      if (!result.ok) throw new Error(`verify failed: ${result.reason}`);
      return { took, max: delay.max / 1e6, p99: delay.percentile(99) / 1e6 };
    };
    const whole = await stall(Number.MAX_SAFE_INTEGER);
    const sliced = await stall();
    const mb = (n: number) => `${(n / 1024 / 1024).toFixed(0)} MiB`;
    return [
      `### Time travel: the gallery at a seq (${head.toLocaleString('en')} events, a tenth of them mural strokes; checkpoints every ${SNAPSHOT_EVERY} kept in the database)`,
      '',
      '| what | figure |',
      '|---|---|',
      `| \`GET /api/gallery?at=SEQ\` at ${QUESTIONS} random seqs: p50 / p95 | ${fmt(warmSpread.p50)} ms / ${fmt(warmSpread.p95)} ms |`,
      `| baseline, full replay from 0 for the same seqs: p50 / p95 | ${fmt(fullSpread.p50)} ms / ${fmt(fullSpread.p95)} ms |`,
      `| first question after a start, at seq ${coldAt.toLocaleString('en')} | ${fmt(coldMs)} ms |`,
      `| first question after a start, at 3 other seqs | ${firsts.map(fmt).join(' / ')} ms |`,
      `| baseline, a first question with no checkpoints kept (the catalog folding the log to the head) | ${fmt(rebuildMs)} ms |`,
      `| the worker keeping ${checkpoints} checkpoints of the whole log at once (off the request path) | ${fmt(keepMs)} ms |`,
      `| rows kept for them (every version once) | ${Number(versions).toLocaleString('en')} rows, ${mb(Number(bytes))} |`,
      `| rows full copies at each checkpoint would hold (the way before, grows with the square of the log) | ${Number(copies).toLocaleString('en')} rows |`,
      `| \`verify\` of the whole chain, hashing in slices of 100 links: time, longest event-loop stall (max / p99) | ${fmt(sliced.took)} ms, ${fmt(sliced.max)} / ${fmt(sliced.p99)} ms |`,
      `| baseline, the same verify hashing each page of 2,000 links at once | ${fmt(whole.took)} ms, ${fmt(whole.max)} / ${fmt(whole.p99)} ms |`,
      `| rebuild: the catalog projection folding the whole log | ${Math.round(head / (rebuildMs / 1000)).toLocaleString('en')} events/s |`,
      `| sealing the chain (RFC 8785 + SHA-256, batches of 5,000) | ${Math.round(head / (sealMs / 1000)).toLocaleString('en')} events/s |`,
      `| writing the log for the bench (bulk INSERT, not appends) | ${fmt(insertMs)} ms |`,
    ].join('\n');
  } finally {
    await Promise.all([baseline.close(), travel.close(), keeper.stop()]);
  }
}
