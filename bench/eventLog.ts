import type pg from 'pg';
import { EventStore } from '#events/store.ts';
import { projections } from '#projections/index.ts';
import { ProjectionRunner } from '#projections/runner.ts';
import { log } from '#api/observability/logger.ts';
import { catalogLag, lagTable, rate } from './support.ts';

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

/** Appends vs. naive INSERTs of the same rows into a plain table, then append-to-read-model lag. */
export async function benchEventLog(pool: pg.Pool) {
  await pool.query(`CREATE TABLE raw_inserts (id bigserial PRIMARY KEY, stream_id text, type text, data jsonb, metadata jsonb,
    recorded_at timestamptz DEFAULT now())`);
  const store = new EventStore(pool);
  let nextId = 1;
  const rows: string[] = [];
  const ROUNDS = 3;
  const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
  for (const writers of [1, 8]) {
    // alternate the two, several rounds, and compare medians: this machine's disk and CPU are noisy
    const raws: number[] = [];
    const appendRates: number[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      raws.push(
        await rate(writers, SECONDS * 1000, async () => {
          const id = nextId++;
          await pool.query(`INSERT INTO raw_inserts (stream_id, type, data, metadata) VALUES ($1, $2, $3, $4)`, [
            `artwork-${id}`,
            'ArtworkSubmitted',
            JSON.stringify(submitted(id).data),
            JSON.stringify(metadata()),
          ]);
        }),
      );
      appendRates.push(
        await rate(writers, SECONDS * 1000, async () => {
          const id = nextId++;
          await store.append(`artwork-${id}`, 0, [submitted(id)], metadata());
        }),
      );
    }
    const raw = median(raws);
    const appends = median(appendRates);
    rows.push(`| ${writers} | ${raw.toFixed(0)} | ${appends.toFixed(0)} | ${((appends / raw) * 100).toFixed(0)}% |`);
  }

  // Lag: 8 writers append while the runner seals the chain and projects the catalog.
  const runner = new ProjectionRunner(store, projections, log.child({ component: 'projection runner' }));
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
    '| writers | raw INSERT /s | EventStore.append /s | append ÷ raw |',
    '|---:|---:|---:|---:|',
    ...rows,
    '',
    '### Append → read model lag, 8 writers, projections running',
    '',
    `appends/s under load: ${underLoad.toFixed(0)}; events measured: ${lags.length} of ${appendedAt.size}`,
    '',
    ...lagTable(lags),
  ].join('\n');
}
