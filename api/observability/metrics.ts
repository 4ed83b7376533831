import type { NextFunction, Request, Response } from 'express';
import type pg from 'pg';
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import { projections } from '#projections/index.ts';
import type { JobHandlers } from '../jobs/jobQueue.ts';
import { log } from './logger.ts';

/**
 * The process's Prometheus registry, served at /metrics. Other modules add their own metrics to it
 * (`new Counter({ ..., registers: [metricsRegistry] })`), e.g. live messages and sockets.
 */
export const metricsRegistry = new Registry();
collectDefaultMetrics({ register: metricsRegistry });

const httpDuration = new Histogram({
  name: 'http_request_duration_seconds',
  help: 'HTTP answers by method, route pattern and status, from the first byte in to the last byte out',
  labelNames: ['method', 'route', 'status_code'] as const,
  buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
  registers: [metricsRegistry],
});

const jobsDone = new Counter({
  name: 'jobs_completed_total',
  help: 'Jobs this process ran to the end',
  labelNames: ['job'] as const,
  registers: [metricsRegistry],
});
const jobsFailed = new Counter({
  name: 'jobs_failed_total',
  help: 'Job runs that threw (pg-boss retries them up to its retry limit)',
  labelNames: ['job'] as const,
  registers: [metricsRegistry],
});
const jobDuration = new Histogram({
  name: 'job_duration_seconds',
  help: 'How long each job run took',
  labelNames: ['job'] as const,
  buckets: [0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 300],
  registers: [metricsRegistry],
});

/** The route pattern, not the path: /api/stories/:id, never one series per id. */
function routeOf(req: Request, res: Response): string {
  const pattern = req.route?.path;
  if (typeof pattern === 'string') return `${req.baseUrl}${pattern}`;
  if (pattern) return 'page';
  return res.statusCode === 404 ? 'unmatched' : 'static';
}

export function httpMetrics(req: Request, res: Response, next: NextFunction): void {
  const end = httpDuration.startTimer();
  res.once('finish', () => end({ method: req.method, route: routeOf(req, res), status_code: res.statusCode }));
  next();
}

/** Each handler counted and timed; a failure is logged and rethrown so pg-boss retries it. */
export function instrumentJobs(handlers: JobHandlers): JobHandlers {
  const wrapped = {} as Record<string, (data: unknown) => Promise<void>>;
  for (const [name, handler] of Object.entries(handlers) as [string, (data: unknown) => Promise<void>][]) {
    wrapped[name] = async (data) => {
      const started = performance.now();
      const end = jobDuration.startTimer({ job: name });
      const jobLog = log.child({ job: name, requestId: (data as { requestId?: string })?.requestId });
      try {
        await handler(data);
        jobsDone.inc({ job: name });
        jobLog.info({ data, ms: Math.round(performance.now() - started) }, 'job done');
      } catch (error) {
        jobsFailed.inc({ job: name });
        jobLog.error({ err: error, data }, 'job failed');
        throw error;
      } finally {
        end();
      }
    };
  }
  return wrapped as JobHandlers;
}

/**
 * How far each projection is behind the log: events not yet applied, and the age of the oldest.
 * Projections move by chain seq (dense from 1), so "applied" is `seq <= checkpoint`; an event not yet
 * sealed is behind every projection. (Comparing positions would miscount: commit order is not
 * position order.)
 */
export async function projectionLag(pool: pg.Pool): Promise<{ name: string; events: number; seconds: number }[]> {
  const { rows } = await pool.query<{ name: string; events: number; seconds: number }>(
    `WITH total AS (SELECT count(*)::int AS n FROM events),
          unsealed AS (
            SELECT min(e.recorded_at) AS oldest FROM events e
            WHERE NOT EXISTS (SELECT 1 FROM event_chain c WHERE c.position = e.position)
          )
     SELECT p.name,
            (SELECT n FROM total) - coalesce(cp.seq, 0)::int AS events,
            coalesce(extract(epoch FROM now() - least(
              (SELECT oldest FROM unsealed),
              (SELECT e.recorded_at FROM event_chain c JOIN events e ON e.position = c.position
                WHERE c.seq = coalesce(cp.seq, 0) + 1)
            )), 0)::float8 AS seconds
       FROM unnest($1::text[]) AS p(name)
       LEFT JOIN projection_checkpoints cp ON cp.name = p.name`,
    [projections.map((p) => p.name)],
  );
  return rows;
}

/**
 * One lag query per scrape: prom-client collects every metric at once (Promise.all), so the two lag
 * gauges share the query in flight; the next scrape asks again.
 */
let lagInFlight: ReturnType<typeof projectionLag> | undefined;
function lagForScrape(pool: pg.Pool): ReturnType<typeof projectionLag> {
  lagInFlight ??= projectionLag(pool).finally(() => (lagInFlight = undefined));
  return lagInFlight;
}

/** The pools lag can be read from: the newest of the servers still running in this process (tests run several). */
const lagPools: pg.Pool[] = [];
/**
 * Lag is read from the database when Prometheus scrapes, so every process reports the truth. Returns
 * the function that stops reading from `pool` (before it ends).
 */
export function measureLagFrom(pool: pg.Pool): () => void {
  lagPools.push(pool);
  return () => {
    const at = lagPools.indexOf(pool);
    if (at >= 0) lagPools.splice(at, 1);
  };
}

new Gauge({
  name: 'projection_lag_events',
  help: 'Events in the log that a projection has not applied yet',
  labelNames: ['projection'] as const,
  registers: [metricsRegistry],
  async collect() {
    const pool = lagPools.at(-1);
    if (!pool) return;
    this.reset();
    for (const row of await lagForScrape(pool)) this.set({ projection: row.name }, row.events);
  },
});
new Gauge({
  name: 'projection_lag_seconds',
  help: 'Age of the oldest event a projection has not applied yet (0 when caught up)',
  labelNames: ['projection'] as const,
  registers: [metricsRegistry],
  async collect() {
    const pool = lagPools.at(-1);
    if (!pool) return;
    this.reset();
    for (const row of await lagForScrape(pool)) this.set({ projection: row.name }, row.seconds);
  },
});
