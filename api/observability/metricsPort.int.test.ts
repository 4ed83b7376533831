import { spawn } from 'node:child_process';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '#db/postgres.ts';
import { startTestServer, type TestServer } from '../../tests/support/server.ts';
import { waitFor } from '../../tests/support/wait.ts';

const ROOT = path.resolve(import.meta.dirname, '../..');

describe('METRICS_PORT: every process scrapeable on an internal port (decision 080)', () => {
  let t: TestServer;
  beforeAll(async () => {
    t = await startTestServer({ METRICS_PORT: '0' }, 'api');
  });
  afterAll(() => t?.close());

  it('an API process serves /metrics there, and not on its public port', async () => {
    const internal = `http://127.0.0.1:${t.server.metricsPort}`;
    expect(t.server.metricsPort).toBeGreaterThan(0);
    expect(t.server.metricsPort).not.toBe(t.server.port);
    await fetch(`${t.url}/api/gate`);
    const scrape = await fetch(`${internal}/metrics`);
    expect(scrape.status).toBe(200);
    expect(await scrape.text()).toContain('http_request_duration_seconds_count{method="GET",route="/api/gate"');
    expect((await fetch(`${internal}/ready`)).status).toBe(200);
    // the public port keeps /ready for the proxy's health checks, and has no /metrics
    expect((await fetch(`${t.url}/metrics`)).status).toBe(404);
    expect((await fetch(`${t.url}/metrics/`)).status).toBe(404);
    expect((await fetch(`${t.url}/ready`)).status).toBe(200);
  });

  it('a worker, which has no other HTTP, serves its job counters and readiness there', async () => {
    const port = await freePort();
    const worker = spawn(process.execPath, [path.join(ROOT, 'api/main.ts'), '--role', 'worker'], {
      cwd: ROOT,
      env: { ...process.env, NODE_ENV: 'test', DATABASE_URL: t.db.url, METRICS_PORT: String(port), TZ: 'UTC' },
      stdio: 'ignore',
    });
    try {
      const text = await waitFor(async () => {
        const res = await fetch(`http://127.0.0.1:${port}/metrics`).catch(() => undefined);
        return res?.ok ? res.text() : undefined;
      }, 60_000);
      expect(text).toContain('# TYPE jobs_failed_total counter');
      expect(text).toContain('# TYPE job_duration_seconds histogram');
      expect(text).toMatch(/^projection_lag_events\{projection="catalog"\} \d+$/m);
      expect((await fetch(`http://127.0.0.1:${port}/ready`)).status).toBe(200);
      // nothing but the scrape and the health answers
      expect((await fetch(`http://127.0.0.1:${port}/api/gate`)).status).toBe(404);
    } finally {
      worker.kill('SIGTERM');
      await new Promise((r) => worker.once('exit', r));
    }
  });
});
