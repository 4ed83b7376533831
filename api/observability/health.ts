import { Router } from 'express';
import type { Deps } from '../deps.ts';
import { metricsRegistry, projectionLag } from './metrics.ts';

let draining = false;
/** Called when shutdown starts: readiness fails at once so the proxy sends new visitors elsewhere. */
export function markDraining(): void {
  draining = true;
}

type Check = { ok: boolean; detail?: string; ms: number };

async function timed(work: () => Promise<string | undefined>, timeoutMs = 2000): Promise<Check> {
  const started = performance.now();
  let timer: NodeJS.Timeout | undefined;
  try {
    const detail = await Promise.race([
      work(),
      new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Error(`no answer in ${timeoutMs} ms`)), timeoutMs);
      }),
    ]);
    return { ok: true, detail, ms: Math.round(performance.now() - started) };
  } catch (error) {
    return { ok: false, detail: (error as Error).message, ms: Math.round(performance.now() - started) };
  } finally {
    clearTimeout(timer);
  }
}

/**
 * Liveness (/health-check: the process answers), readiness (/ready) and the Prometheus scrape
 * (/metrics). docs/decisions/017 and 079.
 *
 * Readiness is what this process needs to answer: its database connection, and not shutting down.
 * What every API process shares (the object store, the worker's projections) is reported under
 * `info` and never fails it: a proxy that removed every process for a slow worker or an object store
 * away would turn the whole site into a 503 page. Lag is a metric, an alert, and a banner on screens.
 */
export function healthRoutes(deps: Deps, { metrics = true }: { metrics?: boolean } = {}): Router {
  const router = Router();

  router.get('/health-check', (_req, res) => {
    res.type('text/plain').send('System Status: Operational');
  });

  router.get('/ready', async (_req, res) => {
    const database = await timed(async () => {
      await deps.pool.query('SELECT 1');
      return undefined;
    });
    const checks = { database, accepting: { ok: !draining, ms: 0 } };
    // a key that never exists: the store must answer "not found", not fail to answer
    const storage = await timed(async () => {
      await deps.blobs.stat('health/readiness-probe');
      return undefined;
    });
    const projections = database.ok
      ? await timed(async () => {
          const lag = await projectionLag(deps.pool);
          const worst = lag.reduce((a, b) => (b.events > a.events ? b : a), { name: '', events: 0, seconds: 0 });
          if (worst.events > deps.config.readyMaxLag) {
            throw new Error(`${worst.name} is ${worst.events} events behind (limit ${deps.config.readyMaxLag})`);
          }
          return `at most ${worst.events} events behind`;
        })
      : { ok: false, detail: 'database unavailable', ms: 0 };
    const ready = Object.values(checks).every((c) => c.ok);
    res
      .status(ready ? 200 : 503)
      .json({ status: ready ? 'ready' : 'unavailable', checks, info: { storage, projections } });
  });

  router.get('/metrics', async (_req, res) => {
    // with METRICS_PORT the scrape is on that internal port only (docs/decisions/080)
    if (!metrics) return void res.status(404).json({ message: 'Not found' });
    res.type(metricsRegistry.contentType).send(await metricsRegistry.metrics());
  });
  return router;
}
