import type pg from 'pg';
import { EventStore } from '#events/store.ts';
import { projections } from '#projections/index.ts';
import { ProjectionRunner } from '#projections/runner.ts';
import { log } from '#api/observability/logger.ts';
import { catalogLag, lagTable, postgresCpu, rate } from './support.ts';
import { systemClock } from '#api/time.ts';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 5);

const submitted = (id: number) =>
  ({
    type: 'ArtworkSubmitted',
    // as the log held it before names left it (v1, decision 050)
    schemaVersion: 1,
    data: {
      artworkId: id,
      title: `Artwork ${id}`,
      description: 'A benchmark submission',
      tags: null,
      artistName: 'Bench Artist',
      emailRef: 1,
      isFromCanvas: false,
      image: { key: `artworks/${id}/original.jpg`, contentType: 'image/jpeg', width: 800, height: 600, bytes: 50_000 },
      submittedAt: new Date().toISOString(),
    },
  }) as const;

const metadata = () => ({ role: 'guest' as const, visitorId: crypto.randomUUID(), now: new Date().toISOString() });

/**
 * Appends vs. naive INSERTs of the same rows into a plain table, with the CPU each takes on both sides,
 * then append-to-read-model lag.
 */
export async function benchEventLog(pool: pg.Pool) {
  await pool.query(`CREATE TABLE raw_inserts (id bigserial PRIMARY KEY, stream_id text, type text, data jsonb, metadata jsonb,
    recorded_at timestamptz DEFAULT now())`);
  const store = new EventStore(pool);
  const pgCpu = await postgresCpu(pool);
  let nextId = 1;
  const rows: string[] = [];
  const costs: string[] = [];
  const ROUNDS = 3;
  const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
  // the same event three ways: the naive table; the log's table (its keys, indexes and triggers) by a
  // plain INSERT; and EventStore.append (schema check, the expected-version claim, the statement)
  const ways = {
    raw: async () => {
      const id = nextId++;
      await pool.query(`INSERT INTO raw_inserts (stream_id, type, data, metadata) VALUES ($1, $2, $3, $4)`, [
        `artwork-${id}`,
        'ArtworkSubmitted',
        JSON.stringify(submitted(id).data),
        JSON.stringify(metadata()),
      ]);
    },
    table: async () => {
      const id = nextId++;
      await pool.query(
        `INSERT INTO events (stream_id, stream_version, type, schema_version, data, metadata) VALUES ($1, 1, $2, 1, $3, $4)`,
        [`artwork-${id}`, 'ArtworkSubmitted', JSON.stringify(submitted(id).data), JSON.stringify(metadata())],
      );
    },
    append: async () => {
      const id = nextId++;
      await store.append(`artwork-${id}`, 0, [submitted(id)], metadata());
    },
  };
  type Way = keyof typeof ways;
  for (const writers of [1, 8]) {
    // alternate the three, several rounds, and compare medians: this machine's disk and CPU are noisy
    const seen = { raw: [], table: [], append: [] } as Record<Way, Array<{ rate: number; node: number; db: number }>>;
    for (let round = 0; round < ROUNDS; round++) {
      for (const way of Object.keys(ways) as Way[]) {
        const node0 = process.cpuUsage();
        const db0 = pgCpu?.() ?? 0;
        let ops = 0;
        const perSecond = await rate(writers, SECONDS * 1000, async () => {
          await ways[way]();
          ops++;
        });
        const node = process.cpuUsage(node0);
        seen[way].push({
          rate: perSecond,
          node: (node.user + node.system) / ops,
          db: pgCpu ? ((pgCpu() - db0) * 1e6) / ops : NaN,
        });
      }
    }
    const m = (way: Way, what: 'rate' | 'node' | 'db') => median(seen[way].map((x) => x[what]));
    rows.push(
      `| ${writers} | ${m('raw', 'rate').toFixed(0)} | ${m('table', 'rate').toFixed(0)} | ${m('append', 'rate').toFixed(0)} | ${((m('append', 'rate') / m('raw', 'rate')) * 100).toFixed(0)}% |`,
    );
    for (const way of Object.keys(ways) as Way[])
      costs.push(`| ${writers} | ${way} | ${m(way, 'node').toFixed(0)} | ${m(way, 'db').toFixed(0)} |`);
  }

  // Lag: 8 writers append while the runner seals the chain and projects the catalog.
  const runner = new ProjectionRunner(store, projections, log.child({ component: 'projection runner' }), systemClock);
  await runner.start();
  const { appendedAt, lags, settle } = catalogLag(runner);
  const underLoad = await rate(8, SECONDS * 1000, async () => {
    const id = nextId++;
    const { positions } = await store.append(`artwork-${id}`, 0, [submitted(id)], metadata());
    appendedAt.set(positions[0]!, performance.now());
  });
  await settle();

  return [
    '### Event log: appends vs. raw INSERT (same PostgreSQL, same run)',
    '',
    `Median of ${ROUNDS} alternating rounds of ${SECONDS} s each; one event per append, a new stream each time.`,
    '',
    '| writers | raw INSERT /s | INSERT into the log table /s | EventStore.append /s | append ÷ raw |',
    '|---:|---:|---:|---:|---:|',
    ...rows,
    '',
    'Where the rest goes: CPU per event, median of the rounds (microseconds; PostgreSQL counts every',
    'process of the cluster, WAL writer and checkpointer included). CPU per event holds on a busy machine',
    'where the rates above do not.',
    '',
    '| writers | way | this process µs | PostgreSQL µs |',
    '|---:|---|---:|---:|',
    ...costs,
    '',
    '### Append → read model lag, 8 writers, projections running',
    '',
    `appends/s under load: ${underLoad.toFixed(0)}; events measured: ${lags.length} of ${appendedAt.size}`,
    '',
    ...lagTable(lags),
  ].join('\n');
}
