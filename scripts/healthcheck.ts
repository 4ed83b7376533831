import pg from 'pg';
import { runCommand, UsageError } from './cli.ts';

const usage = `usage: node scripts/healthcheck.ts (--api | --worker)

  For container healthchecks; exit 0 when healthy, 1 with the reason otherwise.
  --api     asks this container's /ready (its database, not shutting down) on PORT
  --worker  asks the worker's /ready on METRICS_PORT; without METRICS_PORT, checks that its
            database (DATABASE_URL) answers`;

async function ready(port: string): Promise<number> {
  const res = await fetch(`http://127.0.0.1:${port}/ready`, { signal: AbortSignal.timeout(2500) });
  if (res.ok) return 0;
  console.error(`not ready: ${await res.text()}`);
  return 1;
}

await runCommand(usage, async ([which]) => {
  if (which === '--api') return ready(process.env.PORT ?? '3000');
  if (which === '--worker') {
    if (process.env.METRICS_PORT) return ready(process.env.METRICS_PORT);
    const client = new pg.Client({ connectionString: process.env.DATABASE_URL, connectionTimeoutMillis: 2500 });
    try {
      await client.connect();
      await client.query('SELECT 1');
      return 0;
    } finally {
      await client.end().catch(() => {});
    }
  }
  throw new UsageError(which ? `unknown option ${which}` : 'say --api or --worker');
});
