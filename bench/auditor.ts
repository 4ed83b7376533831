import os from 'node:os';
import { setTimeout as sleep } from 'node:timers/promises';
import type pg from 'pg';
import { historyQuery } from '#events/history.ts';
import { EventStore } from '#events/store.ts';
import { HistoryPage } from '../api/history/routes.ts';
import { chainSealer } from '#projections/chain/chainSealer.ts';
import { runBatch } from '#projections/runner.ts';
import { cpuSeconds, spread, startApp, type App } from './support.ts';
import { insertLog } from './timeTravel.ts';

const EVENTS = Number(process.env.BENCH_AUDITOR_EVENTS ?? 50_000);
/** Guests' gallery requests a second, sent on a clock whether or not earlier ones have been answered. */
const RATE = Number(process.env.BENCH_AUDITOR_RATE ?? 100);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 5) * 4;
/**
 * Each condition's seconds are split into this many phases, alternated quiet, auditor, auditor, quiet,
 * …: a quiet value taken once, before, moved from 8 to 15 ms between runs of the same code (autovacuum
 * and the checkpointer after the log's insert, the machine's other load), more than the 20 % the aim
 * allows; alternating puts whatever else happens on the machine into both conditions alike.
 */
const ROUNDS = Number(process.env.BENCH_AUDITOR_ROUNDS ?? 4);
const GUESTS = 50;
/** What the auditor does in its loop: `verify`, `filters`, or both (the default), to see which costs the room. */
const PARTS = (process.env.BENCH_AUDITOR_PARTS ?? 'verify,filters').split(',');
/**
 * Verify and the filters at once, in two loops (an auditor with two tabs), where the default runs one
 * after the other: with verify paced (decision 159), one verify can outlast a phase of 5 s.
 */
const TOGETHER = process.env.BENCH_AUDITOR_TOGETHER === '1';

/** The ten history filters an auditor tries, each a page of the log as the console asks for it. */
const FILTERS = [
  'type=ArtworkApproved',
  'type=NoSuchEvent',
  'kind=story',
  'kind=artwork&order=desc',
  'actor=Nobody',
  'stream=artwork-7',
  'since=2025-09-12T18:00:00Z&until=2025-09-12T19:00:00Z',
  'type=CommentPosted&order=desc',
  `after=${Math.floor(EVENTS / 2)}&limit=1000`,
  'type=StrokeDrawn&limit=1000',
];

/**
 * Guests' gallery pages sent at a steady rate for `seconds`: each request's time, and how many failed.
 * An open loop (a request is sent on time even while others wait), as phones in a room would.
 */
async function guestLoad(app: App, tokens: string[], seconds: number) {
  const times: number[] = [];
  let failed = 0;
  const inFlight: Array<Promise<void>> = [];
  const start = performance.now();
  for (let i = 0; performance.now() - start < seconds * 1000; i++) {
    const due = start + (i * 1000) / RATE;
    const wait = due - performance.now();
    if (wait > 0) await sleep(wait);
    const token = tokens[i % tokens.length]!;
    const page = 1 + (i % 20);
    inFlight.push(
      (async () => {
        // timed from when it was due, so a loop that fell behind is not hidden (no coordinated omission)
        const r = await app.call('GET', `/api/gallery?page=${page}`, token).catch(() => null);
        if (r?.ok) {
          await r.arrayBuffer();
          times.push(performance.now() - due);
        } else failed++;
      })(),
    );
  }
  await Promise.all(inFlight);
  return { times, failed };
}

type Phase = Awaited<ReturnType<typeof guestLoad>>;
const pooled = (phases: Phase[]) => ({
  ...spread(phases.flatMap((p) => p.times)),
  failed: phases.reduce((sum, p) => sum + p.failed, 0),
});

/**
 * An auditor at work until `stop()`: verify the whole chain, then the ten filters, again and again (or
 * both loops at once, TOGETHER).
 */
function auditorAtWork(app: App, token: string) {
  let running = true;
  const verifies: number[] = [];
  const filters: number[] = [];
  let refused = 0;
  const verifyOnce = async () => {
    const t = performance.now();
    const v = await app.call('GET', '/api/admin/events/verify', token);
    const body = (await v.json()) as { ok?: boolean };
    // refused by the statement timeout: counted, as the filters' are
    if (v.status === 503) refused++;
    else if (!v.ok || body.ok !== true) throw new Error(`verify answered ${v.status}: ${JSON.stringify(body)}`);
    else verifies.push(performance.now() - t);
  };
  const filtersOnce = async () => {
    for (const filter of FILTERS) {
      if (!running) break;
      const t = performance.now();
      const r = await app.call('GET', `/api/admin/events?${filter}`, token);
      await r.arrayBuffer();
      if (r.status === 503) refused++;
      else if (!r.ok) throw new Error(`history ${filter} answered ${r.status}`);
      filters.push(performance.now() - t);
    }
  };
  const loop = async (step: () => Promise<void>) => {
    while (running) await step();
  };
  const done = TOGETHER
    ? Promise.all([loop(verifyOnce), loop(filtersOnce)])
    : loop(async () => {
        if (PARTS.includes('verify')) await verifyOnce();
        if (PARTS.includes('filters')) await filtersOnce();
      });
  // a failure is reported by stop(); until then it must not end the bench as an unhandled rejection
  done.catch(() => {});
  return {
    async stop() {
      running = false;
      await done;
      return { verifyTimes: verifies, filterTimes: filters, refused };
    },
  };
}

const ms = (x: number) => (x >= 100 ? x.toFixed(0) : x.toFixed(1));

interface PlanNode {
  'Node Type': string;
  'Relation Name'?: string;
  'Index Name'?: string;
  Plans?: PlanNode[];
}

/** How a plan reads the events table: each scan of it, with its index. */
function eventScans(node: PlanNode): string[] {
  const own =
    node['Relation Name'] === 'events'
      ? [`${node['Node Type']}${node['Index Name'] ? ` (${node['Index Name']})` : ''}`]
      : [];
  return [...own, ...(node.Plans ?? []).flatMap(eventScans)];
}

/**
 * What each filter's page costs, alone on a quiet server: the app's answer (the read thread's query,
 * links, JSON, ETag and gzip, and the HTTP around them) against PostgreSQL's own time for the same
 * query (`EXPLAIN ANALYZE`, the baseline), and how the query reads the events table. The ten of the
 * auditor's loop, and the actor filter with a name the log has.
 */
async function historyPages(app: App, token: string, pool: pg.Pool) {
  const lines = [
    `### Each history filter's page, alone (a log of ${EVENTS.toLocaleString('en')} events; p50 of 10)`,
    '',
    '| filter | events | bytes (gzip) | the app\u2019s page | PostgreSQL alone (`EXPLAIN ANALYZE`) | how the events table is read |',
    '|---|---:|---:|---:|---:|---|',
  ];
  for (const filter of [...FILTERS, 'actor=Ada%20Admin']) {
    const appTimes: number[] = [];
    let events = 0;
    let bytes = 0;
    for (let i = 0; i < 10; i++) {
      const t = performance.now();
      const r = await app.call('GET', `/api/admin/events?${filter}`, token);
      const body = await r.text();
      appTimes.push(performance.now() - t);
      if (!r.ok) throw new Error(`history ${filter} answered ${r.status}`);
      events = (JSON.parse(body) as { events: unknown[] }).events.length;
      bytes = Number(r.headers.get('content-length') ?? body.length);
    }
    const query = historyQuery(HistoryPage.parse(Object.fromEntries(new URLSearchParams(filter))));
    const sqlTimes: number[] = [];
    let scans: string[] = [];
    for (let i = 0; i < 10; i++) {
      const { rows } = await pool.query<{ 'QUERY PLAN': [{ 'Execution Time': number; Plan: PlanNode }] }>({
        ...query,
        text: `EXPLAIN (ANALYZE, FORMAT JSON) ${query.text}`,
      });
      const [plan] = rows[0]!['QUERY PLAN'];
      sqlTimes.push(plan['Execution Time']);
      scans = eventScans(plan.Plan);
    }
    lines.push(
      `| \`${decodeURIComponent(filter)}\` | ${events} | ${bytes.toLocaleString('en')} | ${ms(spread(appTimes).p50)} ms | ${ms(spread(sqlTimes).p50)} ms | ${scans.join(', ')} |`,
    );
  }
  return lines.join('\n');
}

/**
 * A guest's gallery while an auditor works (issue 29): the same steady stream of guests' page requests
 * with nobody else at work, and while an auditor runs `verify` and ten history filters in a loop on the
 * same server, in alternated phases (ROUNDS); p50/p95/p99 of each condition's requests pooled, and the
 * server's CPU in each.
 */
export async function benchAuditor(pool: pg.Pool, url: string) {
  if (!PARTS.length || PARTS.some((part) => part !== 'verify' && part !== 'filters'))
    throw new Error(`BENCH_AUDITOR_PARTS: verify, filters or both, not ${PARTS.join(',')}`);
  // the admin who approved the submissions, by the name given at login: what the actor filter finds
  const { rows: named } = await pool.query<{ id: number }>(
    `INSERT INTO personal_data (kind, value) VALUES ('name', 'Ada Admin') RETURNING id`,
  );
  await insertLog(pool, EVENTS, named[0]!.id);
  const store = new EventStore(pool);
  for (let read = -1; read !== 0;) ({ read } = await runBatch(store, chainSealer, 5000));
  const app = await startApp(url);
  try {
    // the catalog catches up with the log before anyone looks
    for (;;) {
      const { rows } = await pool.query<{ behind: boolean }>(
        // as the app counts lag: events against the catalog's chain seq (the last sealed need not be the highest position)
        `SELECT (SELECT count(*) FROM events) > coalesce((SELECT seq FROM projection_checkpoints WHERE name = 'catalog'), 0) AS behind`,
      );
      if (!rows[0]!.behind) break;
      await sleep(200);
    }
    const tokens = await app.guests(GUESTS);
    const auditor = await app.admin();
    // warm: every page once, and one verify, so neither phase pays for a first time
    for (let page = 1; page <= 20; page++)
      await (await app.call('GET', `/api/gallery?page=${page}`, tokens[0]!)).arrayBuffer();
    await (await app.call('GET', '/api/admin/events/verify', auditor)).arrayBuffer();

    // what the log's insert left behind is done before either condition is timed
    await pool.query('VACUUM ANALYZE');
    await pool.query('CHECKPOINT');

    const pages = await historyPages(app, auditor, pool);

    const pid = app.process.pid!;
    const quietPhases: Phase[] = [];
    const busyPhases: Phase[] = [];
    const audits: Array<Awaited<ReturnType<ReturnType<typeof auditorAtWork>['stop']>>> = [];
    let quietCpu = 0;
    let busyCpu = 0;
    const phaseSeconds = SECONDS / ROUNDS;
    for (let round = 0; round < ROUNDS; round++) {
      // quiet first in even rounds, the auditor first in odd ones: Q A A Q Q A …
      for (const withAuditor of round % 2 === 0 ? [false, true] : [true, false]) {
        const cpu = cpuSeconds(pid);
        if (!withAuditor) {
          quietPhases.push(await guestLoad(app, tokens, phaseSeconds));
          quietCpu += cpuSeconds(pid) - cpu;
        } else {
          const work = auditorAtWork(app, auditor);
          busyPhases.push(await guestLoad(app, tokens, phaseSeconds));
          // the verify in flight is waited for outside the timed phase, so the next quiet phase is quiet
          busyCpu += cpuSeconds(pid) - cpu;
          audits.push(await work.stop());
        }
      }
    }
    const quiet = pooled(quietPhases);
    const busy = pooled(busyPhases);
    const audit = {
      verifies: spread(audits.flatMap((a) => a.verifyTimes)),
      filters: spread(audits.flatMap((a) => a.filterTimes)),
      refused: audits.reduce((sum, a) => sum + a.refused, 0),
    };
    const perRound = quietPhases
      .map((q, i) => `${ms(spread(q.times).p95)} / ${ms(spread(busyPhases[i]!.times).p95)}`)
      .join(', ');

    const row = (name: string, r: typeof quiet, cpuS: number) =>
      `| ${name} | ${r.n} | ${ms(r.p50)} ms | ${ms(r.p95)} ms | ${ms(r.p99)} ms | ${ms(r.max)} ms | ${r.failed} | ${cpuS.toFixed(1)} s |`;
    return [
      pages,
      '',
      `### A guest's gallery while an auditor works (${PARTS.join(' and ')}${TOGETHER ? ', at once' : ''}): ${RATE} pages/s from ${GUESTS} guests for ${SECONDS} s each, in ${ROUNDS} alternated phases of ${phaseSeconds} s, a log of ${EVENTS.toLocaleString('en')} events (${os.cpus().length} cores)`,
      '',
      '| guests\u2019 `GET /api/gallery` | requests | p50 | p95 | p99 | max | failed | server CPU |',
      '|---|---:|---:|---:|---:|---:|---:|---:|',
      row('nobody else at work (baseline)', quiet, quietCpu),
      row(
        `an auditor running ${PARTS.map((part) => (part === 'verify' ? 'verify' : 'ten filters')).join(' and ')} in a loop`,
        busy,
        busyCpu,
      ),
      '',
      `p95 with the auditor at work: ${((busy.p95 / quiet.p95) * 100).toFixed(0)} % of its quiet value (aim: at most 120 %). Each round's p95, quiet / with the auditor: ${perRound} ms.`,
      '',
      `The auditor meanwhile: ${audit.verifies.n} runs of verify over the whole chain (p50 ${ms(audit.verifies.p50)} ms, max ${ms(audit.verifies.max)} ms), ${audit.filters.n} history pages (p50 ${ms(audit.filters.p50)} ms, p95 ${ms(audit.filters.p95)} ms, max ${ms(audit.filters.max)} ms), ${audit.refused} refused by the statement timeout.`,
    ].join('\n');
  } finally {
    await app.stop();
  }
}
