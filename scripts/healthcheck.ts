import pg from 'pg';
import { runCommand, UsageError } from './cli.ts';

const usage = `usage: node scripts/healthcheck.ts (--api | --worker)

  For container healthchecks; exit 0 when healthy, 1 with the reason otherwise.
  --api     asks this container's /ready (database, storage, projection lag) on PORT
  --worker  checks that the worker's database (DATABASE_URL) answers`;

await runCommand(usage, async ([which]) => {
  if (which === '--api') {
    const res = await fetch(`http://127.0.0.1:${process.env.PORT ?? 3000}/ready`, {
      signal: AbortSignal.timeout(2500),
    });
    if (res.ok) return 0;
    console.error(`not ready: ${await res.text()}`);
    return 1;
  }
  if (which === '--worker') {
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
