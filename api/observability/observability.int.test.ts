import { spawn, type ChildProcess } from 'node:child_process';
import http from 'node:http';
import path from 'node:path';
import { io as connect } from 'socket.io-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '#db/postgres.ts';
import { freshDatabase } from '../../tests/support/database.ts';
import { startS3 } from '../../tests/support/s3.ts';
import { seeder } from '../../tests/support/seedGallery.ts';
import { ADMIN_KEY, PASSWORDS, startTestServer, type TestServer } from '../../tests/support/server.ts';
import { waitFor } from '../../tests/support/wait.ts';
import { metricsRegistry } from './metrics.ts';

const ROOT = path.resolve(import.meta.dirname, '../..');

/** The value of one sample line of the Prometheus text format, or undefined. */
function sample(text: string, name: string, labels: Record<string, string> = {}): number | undefined {
  for (const line of text.split('\n')) {
    if (!line.startsWith(`${name}{`) && !line.startsWith(`${name} `)) continue;
    if (Object.entries(labels).every(([k, v]) => line.includes(`${k}="${v}"`))) return Number(line.split(' ').at(-1));
  }
  return undefined;
}

describe('/metrics after a small workload', () => {
  let t: TestServer;
  beforeAll(async () => {
    // The registry is the process's: the test files this vitest worker ran before counted into it too
    // (vitest runs many files in one process, with isolation off). Count from this file's workload.
    metricsRegistry.resetMetrics();
    t = await startTestServer();
  });
  afterAll(() => t?.close());

  it('shows request latency, projection lag, job counts and live message counts', async () => {
    const socket = connect(t.url, { auth: { token: await t.login('guest') }, transports: ['websocket'] });
    await new Promise<void>((resolve, reject) => {
      socket.once('sync:batch', () => resolve());
      socket.once('connect_error', reject);
    });
    const seed = await seeder(t);
    const artwork = await seed.artwork({ title: 'Measured' });
    await seed.story({ content: 'A measured story' });
    for (let i = 0; i < 5; i++) await seed.guest('GET', '/api/gallery');
    await seed.guest('GET', `/api/artworks/${artwork}`);

    let text = '';
    await waitFor(async () => {
      text = await (await fetch(`${t.url}/metrics`)).text();
      // the job's own event is projected a moment after the job completes: wait for both
      return (
        (sample(text, 'jobs_completed_total', { job: 'make-artwork-renditions' }) ?? 0) >= 1 &&
        sample(text, 'projection_lag_events', { projection: 'catalog' }) === 0
      );
    }, 30_000);
    const galleryCount = sample(text, 'http_request_duration_seconds_count', { route: '/api/gallery', method: 'GET' });
    const gallerySum = sample(text, 'http_request_duration_seconds_sum', { route: '/api/gallery', method: 'GET' });
    expect(galleryCount).toBeGreaterThanOrEqual(5);
    expect(gallerySum).toBeGreaterThan(0);
    // one series per route pattern, never per id
    expect(sample(text, 'http_request_duration_seconds_count', { route: '/api/artworks/:id' })).toBeGreaterThanOrEqual(
      1,
    );
    expect(text).not.toContain(`route="/api/artworks/${artwork}"`);
    // lag is measured from the database at scrape time: reported for each projection, 0 once caught up
    expect(sample(text, 'projection_lag_events', { projection: 'catalog' })).toBe(0);
    expect(sample(text, 'projection_lag_seconds', { projection: 'catalog' })).toBe(0);
    expect(sample(text, 'jobs_failed_total', { job: 'make-artwork-renditions' }) ?? 0).toBe(0);
    expect(sample(text, 'process_resident_memory_bytes')).toBeGreaterThan(0);
    // live delivery: the approvals went out, to the socket that is open
    await waitFor(async () => {
      text = await (await fetch(`${t.url}/metrics`)).text();
      return (sample(text, 'live_messages_sent_total', { event: 'gallery:item-added' }) ?? 0) >= 2;
    }, 10_000);
    expect(sample(text, 'live_sockets')).toBe(1);
    expect(sample(text, 'live_socket_deliveries_total')).toBeGreaterThanOrEqual(2);
    expect(sample(text, 'live_welcomes_total', { result: 'first' })).toBe(1);
    expect(sample(text, 'live_position')).toBeGreaterThan(0);
    socket.close();
  });

  it('reports lag while the projections are behind', async () => {
    // the runner stops (as if the worker died); the log grows behind it
    await t.server.runner!.stop();
    await t.db.pool.query(
      `INSERT INTO events (stream_id, stream_version, type, schema_version, data, metadata)
         VALUES ('lag-probe-1', 1, 'LagProbe', 1, '{}', '{}'), ('lag-probe-2', 1, 'LagProbe', 1, '{}', '{}')`,
    );
    const text = await (await fetch(`${t.url}/metrics`)).text();
    expect(sample(text, 'projection_lag_events', { projection: 'catalog' })).toBe(2);
    expect(sample(text, 'projection_lag_seconds', { projection: 'catalog' })).toBeGreaterThan(0);
  });
});

describe('readiness', () => {
  it('is the database and not shutting down; the storage is reported beside it, apart from liveness', async () => {
    const s3 = await startS3();
    const t = await startTestServer({ ...s3.env, READY_MAX_LAG: '5' });
    try {
      const ready = await fetch(`${t.url}/ready`);
      const body = await ready.json();
      expect(ready.status).toBe(200);
      expect(body.status).toBe('ready');
      expect(body.checks.database.ok).toBe(true);
      expect(body.checks.accepting.ok).toBe(true);
      expect(body.info.storage.ok).toBe(true);
      expect(body.info.projections.ok).toBe(true);

      // the object store goes away: every process shares it, so none leaves the pool for it (decision 079)
      await s3.stop();
      const down = await fetch(`${t.url}/ready`);
      const downBody = await down.json();
      expect(down.status).toBe(200);
      expect(downBody.info.storage.ok).toBe(false);
      expect(downBody.checks.database.ok).toBe(true);
      expect((await fetch(`${t.url}/health-check`)).status).toBe(200);
    } finally {
      await t.close();
    }
  });

  it('stays ready while the projections are further behind than READY_MAX_LAG, and says so', async () => {
    const t = await startTestServer({ READY_MAX_LAG: '3' }, 'api');
    try {
      const values = Array.from({ length: 5 }, (_, i) => `('lag-${i}', 1, 'LagProbe', 1, '{}', '{}')`).join(',');
      await t.db.pool.query(
        `INSERT INTO events (stream_id, stream_version, type, schema_version, data, metadata) VALUES ${values}`,
      );
      const res = await fetch(`${t.url}/ready`);
      const body = await res.json();
      expect(res.status).toBe(200);
      expect(body.info.projections.ok).toBe(false);
      expect(body.info.projections.detail).toMatch(/(catalog|chain) is 5 events behind \(limit 3\)/);
    } finally {
      await t.close();
    }
  });
});

describe('one process, run as in production', () => {
  let db: Awaited<ReturnType<typeof freshDatabase>>;
  let child: ChildProcess | undefined;
  let lines: string[] = [];
  let stderr = '';
  let url = '';
  beforeAll(async () => {
    db = await freshDatabase();
    const port = await freePort();
    url = `http://127.0.0.1:${port}`;
    child = spawn(process.execPath, [path.join(ROOT, 'api/main.ts'), '--role', 'all'], {
      cwd: ROOT,
      env: {
        ...process.env,
        NODE_ENV: 'test',
        LOG_LEVEL: 'info',
        PORT: String(port),
        DATABASE_URL: db.url,
        GALLERY_PASSWORD: PASSWORDS.guest,
        ADMIN_PASSWORD: PASSWORDS.admin,
        ADMIN_KEY,
        TZ: 'UTC',
        SHUTDOWN_GRACE_MS: '8000',
      },
    });
    let pending = '';
    child.stdout!.on('data', (d) => {
      pending += d;
      const parts = pending.split('\n');
      pending = parts.pop()!;
      lines.push(...parts);
    });
    child.stderr!.on('data', (d) => (stderr += d));
    await waitFor(async () => (await fetch(`${url}/ready`).catch(() => undefined))?.status === 200, 60_000);
  });
  afterAll(async () => {
    if (child?.exitCode === null) child.kill('SIGKILL');
    await db.drop();
  });

  it('logs each answer as JSON with the request id the events carry too', async () => {
    const login = await fetch(`${url}/api/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ password: PASSWORDS.guest }),
    });
    const { sessionToken } = await login.json();
    const res = await fetch(`${url}/api/stories`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-session-token': sessionToken },
      body: JSON.stringify({ content: 'Logged story', authorName: 'Lou Logger', email: 'lou@example.com' }),
    });
    expect(res.status).toBe(201);
    const requestId = res.headers.get('x-request-id')!;
    expect(requestId).toMatch(/^[0-9a-f-]{36}$/);

    await waitFor(async () => lines.some((l) => l.includes(requestId)), 10_000);
    const entry = JSON.parse(lines.find((l) => l.includes(requestId))!);
    expect(entry).toMatchObject({ level: 30, req: { id: requestId, method: 'POST', url: '/api/stories' } });
    expect(entry.res.statusCode).toBe(201);
    expect(typeof entry.responseTime).toBe('number');
    // no session token, cookie or address in the log
    expect(JSON.stringify(entry)).not.toContain(sessionToken);
    expect(JSON.stringify(entry)).not.toContain('127.0.0.1');

    const { rows } = await db.pool.query(
      `SELECT metadata->>'requestId' AS id FROM events WHERE type = 'StorySubmitted'`,
    );
    expect(rows[0].id).toBe(requestId);
  });

  it('logs a failed request once, as JSON under its request id, with the error and its stack', async () => {
    const { sessionToken } = await (
      await fetch(`${url}/api/auth/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ password: PASSWORDS.guest }),
      })
    ).json();
    // a fault that is no outage: the gallery's table is gone, so the page fails with a 500
    await db.pool.query(`ALTER TABLE catalog_items RENAME TO catalog_items_away`);
    let res: Response;
    try {
      res = await fetch(`${url}/api/gallery`, { headers: { 'x-session-token': sessionToken } });
    } finally {
      await db.pool.query(`ALTER TABLE catalog_items_away RENAME TO catalog_items`);
    }
    expect(res.status).toBe(500);
    expect((await res.json()).message).toMatch(/went wrong on our side/);
    const requestId = res.headers.get('x-request-id')!;

    await waitFor(async () => lines.some((l) => l.includes(requestId)), 10_000);
    const entries = lines.filter((l) => l.includes(requestId)).map((l) => JSON.parse(l));
    expect(entries).toHaveLength(1);
    expect(entries[0]).toMatchObject({
      level: 50,
      role: 'all',
      req: { id: requestId, method: 'GET', url: '/api/gallery' },
      res: { statusCode: 500 },
      err: { message: expect.stringContaining('catalog_items'), code: '42P01' },
    });
    expect(entries[0].err.stack).toMatch(/^error: relation "catalog_items" does not exist\n\s+at /);
    expect(JSON.stringify(entries[0])).not.toContain(sessionToken);
    expect(stderr).not.toContain('catalog_items');
  });

  it('logs a background failure as JSON naming its component', async () => {
    const from = lines.length;
    // the projection runner cannot set aside an event it cannot read: its batch fails until the table is back
    await db.pool.query(`ALTER TABLE quarantined_events RENAME TO quarantined_events_away`);
    try {
      await db.pool.query(
        `INSERT INTO events (stream_id, stream_version, type, schema_version, data, metadata)
           VALUES ('log-probe-1', 1, 'LogProbe', 1, '{}', '{}')`,
      );
      await waitFor(async () => lines.slice(from).some((l) => l.includes('"component":"projection runner"')), 10_000);
    } finally {
      await db.pool.query(`ALTER TABLE quarantined_events_away RENAME TO quarantined_events`);
    }
    const entry = JSON.parse(lines.slice(from).find((l) => l.includes('"component":"projection runner"'))!);
    expect(entry).toMatchObject({
      level: 50,
      role: 'all',
      component: 'projection runner',
      err: { message: expect.stringContaining('quarantined_events'), code: '42P01' },
    });
    expect(entry.err.stack).toMatch(/\n\s+at /);
    // and nowhere as a bare console line
    expect(stderr).not.toContain('quarantined_events');
  });

  it('drains on SIGTERM: readiness fails, an answer in progress completes, the process exits 0', async () => {
    // a request whose body is still arriving when the signal comes
    const answered = new Promise<number>((resolve, reject) => {
      const req = http.request(`${url}/api/auth/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'content-length': '40' },
      });
      req.on('response', (res) => {
        res.resume();
        resolve(res.statusCode!);
      });
      req.on('error', reject);
      req.write('{"password":');
      setTimeout(() => req.end(JSON.stringify(PASSWORDS.guest).padEnd(27, ' ') + '}'), 700);
    });
    await new Promise((r) => setTimeout(r, 200));
    const exited = new Promise<number | null>((resolve) => child!.once('exit', (code) => resolve(code)));
    child!.kill('SIGTERM');
    await new Promise((r) => setTimeout(r, 100));
    expect(await answered).toBe(200);
    expect(await exited).toBe(0);
    expect(lines.some((l) => l.includes('"shutting down"'))).toBe(true);
    expect(lines.some((l) => l.includes('"stopped"'))).toBe(true);
  });
});
