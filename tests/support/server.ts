import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { loadConfig } from '#api/config.ts';
import { startServer, type Role, type RunningServer } from '#api/server.ts';
import type { Clock } from '#api/time.ts';
import { freshDatabase } from './database.ts';

export const PASSWORDS = { guest: 'guest-pass', admin: 'admin-pass', auditor: 'auditor-pass' } as const;
export const ADMIN_KEY = 'the-admin-key';

export interface TestServer {
  url: string;
  server: RunningServer;
  db: Awaited<ReturnType<typeof freshDatabase>>;
  dataDir: string;
  login(role: keyof typeof PASSWORDS): Promise<string>;
  close(): Promise<void>;
}

/**
 * The test process runs in the zone its servers are configured with, as a deployed one does (its TZ
 * is both the config's zone and Node's): the worker dates an approval's live message by the process's
 * zone (decision 133), the gallery pages by the config's, and on a host not on UTC they would differ.
 */
process.env.TZ = 'UTC';

/** The test settings for a process on `databaseUrl` with its own `dataDir`, free port, known passwords. */
export const testConfig = (databaseUrl: string, dataDir: string, env: Record<string, string>) =>
  loadConfig({
    NODE_ENV: 'test',
    PORT: '0',
    DATA_DIR: dataDir,
    DATABASE_URL: databaseUrl,
    GALLERY_PASSWORD: PASSWORDS.guest,
    ADMIN_PASSWORD: PASSWORDS.admin,
    AUDITOR_PASSWORD: PASSWORDS.auditor,
    ADMIN_KEY,
    TZ: 'UTC',
    ...env,
  });

/** The real program on a fresh database and a temp DATA_DIR, listening on a free port (on `clock`, if given). */
export async function startTestServer(
  env: Record<string, string> = {},
  role: Role = 'all',
  clock?: Clock,
): Promise<TestServer> {
  const db = await freshDatabase();
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'tribute-data-'));
  const server = await startServer(testConfig(db.url, dataDir, env), role, clock);
  const url = `http://127.0.0.1:${server.port}`;
  return {
    url,
    server,
    db,
    dataDir,
    async login(r) {
      const res = await fetch(`${url}/api/auth/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ password: PASSWORDS[r] }),
      });
      const body = (await res.json()) as { sessionToken: string };
      return body.sessionToken;
    },
    async close() {
      await server.close();
      await db.drop();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

export interface SecondProcess {
  url: string;
  server: RunningServer;
  close(): Promise<void>;
}

/**
 * Another process of the program on the test server's database, as production runs several (an
 * API process unless told otherwise), with a DATA_DIR of its own that closing removes.
 */
export async function startSecondProcess(
  t: TestServer,
  env: Record<string, string> = {},
  role: Role = 'api',
): Promise<SecondProcess> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'tribute-second-'));
  const server = await startServer(testConfig(t.db.url, dataDir, env), role);
  return {
    url: `http://127.0.0.1:${server.port}`,
    server,
    async close() {
      await server.close();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** A small client: JSON in, { status, body } out. */
export function client(base: string, token?: string) {
  return async (method: string, url: string, body?: unknown, headers: Record<string, string> = {}) => {
    const res = await fetch(`${base}${url}`, {
      method,
      headers: {
        ...(token ? { 'x-session-token': token } : {}),
        ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
        ...headers,
      },
      body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
    });
    const text = await res.text();
    let json: any;
    try {
      json = JSON.parse(text);
    } catch {
      json = text;
    }
    return { status: res.status, body: json, headers: res.headers };
  };
}
