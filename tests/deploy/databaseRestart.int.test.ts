import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { loadConfig } from '#api/config.ts';
import { startEmbedded } from '#db/postgres.ts';
import { startServer, type RunningServer } from '#api/server.ts';
import { ADMIN_KEY, PASSWORDS } from '../support/server.ts';
import { waitFor } from '../support/wait.ts';

/** PostgreSQL stopped and started again on the same port and data, while visitors keep writing. */
const cleanup: (() => Promise<unknown> | unknown)[] = [];
afterAll(async () => {
  for (const step of cleanup.reverse()) await step();
});

interface Attempt {
  content: string;
  startedAt: number;
  status: number;
  id?: number;
}

describe('PostgreSQL restarted under load', () => {
  it('loses no acknowledged write, answers 503 (never 500) while it is away, and all is well once it is back', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tribute-pg-restart-'));
    fs.chmodSync(dir, 0o777);
    cleanup.push(() => fs.rmSync(dir, { recursive: true, force: true }));
    const db = await startEmbedded(path.join(dir, 'postgres'));
    cleanup.push(() => db.stop());
    const config = loadConfig({
      NODE_ENV: 'test',
      PORT: '0',
      DATA_DIR: dir,
      DATABASE_URL: db.url,
      GALLERY_PASSWORD: PASSWORDS.guest,
      ADMIN_PASSWORD: PASSWORDS.admin,
      ADMIN_KEY,
      TZ: 'UTC',
    });
    const server: RunningServer = await startServer(config, 'all');
    cleanup.push(() => server.close().catch(() => {}));
    const url = `http://127.0.0.1:${server.port}`;
    // each writer is a visitor of its own, and a new one before the per-visitor write limit (30 an hour)
    const login = async () => {
      const res = await fetch(`${url}/api/auth/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ password: PASSWORDS.guest }),
      });
      return res.ok ? ((await res.json()) as { sessionToken: string }).sessionToken : undefined;
    };

    const attempts: Attempt[] = [];
    let n = 0;
    let stopAt = Infinity;
    const writer = async () => {
      let sessionToken: string | undefined;
      let written = 0;
      while (Date.now() < stopAt) {
        if (!sessionToken || written >= 25) {
          sessionToken = await login().catch(() => undefined);
          written = 0;
          if (!sessionToken) {
            await new Promise((r) => setTimeout(r, 100));
            continue;
          }
        }
        const content = `Written under load #${++n}`;
        const attempt: Attempt = { content, startedAt: Date.now(), status: 0 };
        attempts.push(attempt);
        try {
          const res = await fetch(`${url}/api/stories`, {
            method: 'POST',
            headers: { 'content-type': 'application/json', 'x-session-token': sessionToken },
            body: JSON.stringify({ content, authorName: 'Load Writer', email: 'load@example.com' }),
            signal: AbortSignal.timeout(15_000),
          });
          attempt.status = res.status;
          const body = (await res.json()) as { id?: number };
          if (res.status === 201) {
            attempt.id = body.id;
            written++;
          }
        } catch {
          attempt.status = -1; // no answer at all
        }
        if (attempt.status !== 201) await new Promise((r) => setTimeout(r, 100));
      }
    };

    const writers = Array.from({ length: 4 }, writer);
    // writes are going through before the restart: the first acknowledged, then a moment more
    // (a fixed 1.5 s assumed the first login and write took less; with the limits and the visitor
    // secret of issue 20 they sometimes did not, and no write had been acknowledged yet)
    while (!attempts.some((a) => a.status === 201)) await new Promise((r) => setTimeout(r, 50));
    await new Promise((r) => setTimeout(r, 500));
    const downAt = Date.now();
    await db.restart!();
    const backAt = Date.now();
    // keep writing for a while after it is back
    stopAt = backAt + 6000;
    await Promise.all(writers);

    const statuses = attempts.reduce<Record<number, number>>(
      (m, a) => ({ ...m, [a.status]: (m[a.status] ?? 0) + 1 }),
      {},
    );
    console.log(`restart took ${backAt - downAt} ms; answers by status: ${JSON.stringify(statuses)}`);
    expect(attempts.filter((a) => a.status === 500)).toEqual([]);
    expect(attempts.filter((a) => a.status === -1)).toEqual([]);
    expect(Object.keys(statuses).every((s) => s === '201' || s === '503')).toBe(true);
    expect(attempts.filter((a) => a.startedAt < downAt && a.status === 201).length).toBeGreaterThan(0);
    // once it is back (and the pool has noticed), every write succeeds
    const afterBack = attempts.filter((a) => a.startedAt > backAt + 2000);
    expect(afterBack.length).toBeGreaterThan(0);
    expect(afterBack.every((a) => a.status === 201)).toBe(true);

    // every acknowledged write is in the log and reaches the catalog
    const acknowledged = attempts.filter((a) => a.status === 201);
    const check = new pg.Client({ connectionString: db.url });
    await check.connect();
    try {
      const { rows } = await check.query<{ content: string }>(
        // the text is personal data beside the event (decision 050)
        `SELECT p.value AS content FROM events e JOIN personal_data p ON p.id = (e.data->>'contentRef')::bigint
         WHERE e.type = 'StorySubmitted'`,
      );
      const logged = new Set(rows.map((r) => r.content));
      expect(acknowledged.filter((a) => !logged.has(a.content))).toEqual([]);
      await waitFor(async () => {
        const catalog = await check.query<{ n: number }>(
          `SELECT count(*)::int AS n FROM catalog_items WHERE kind = 'story' AND id = ANY($1::bigint[])`,
          [acknowledged.map((a) => a.id)],
        );
        return catalog.rows[0]!.n === acknowledged.length;
      }, 30_000);
    } finally {
      await check.end();
    }
  }, 180_000);
});
