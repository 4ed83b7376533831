import { spawn } from 'node:child_process';
import { createHmac } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { freePort } from '#db/postgres.ts';
import { waitFor } from './wait.ts';

const ROOT = path.resolve(import.meta.dirname, '../..');
export const CADDY = '/usr/bin/caddy';
export const CADDYFILE = path.join(ROOT, 'deploy/Caddyfile');
export const LB_COOKIE_SECRET = 'a-test-cookie-secret';

/** The affinity cookie Caddy gives a browser it sends to the API process on `port` (under LB_COOKIE_SECRET). */
export const affinityFor = (port: number) =>
  createHmac('sha256', LB_COOKIE_SECRET).update(`127.0.0.1:${port}`).digest('hex');

export interface RunningCaddy {
  url: string;
  /** what caddy printed (its JSON log lines) */
  output: string[];
  close(): Promise<void>;
}

/**
 * The real Caddy (Debian's package) running deploy/Caddyfile as deployed, with a plain HTTP site
 * address on a free port in place of the public host name, in front of the API processes on
 * `apiPorts`. Its admin endpoint listens on another free port; its storage is a temp folder.
 */
export async function startCaddy(apiPorts: number[]): Promise<RunningCaddy> {
  const port = await freePort();
  const adminPort = await freePort();
  const home = fs.mkdtempSync(path.join(os.tmpdir(), 'tribute-caddy-'));
  const child = spawn(CADDY, ['run', '--config', CADDYFILE, '--adapter', 'caddyfile'], {
    env: {
      PATH: process.env.PATH,
      HOME: home,
      XDG_DATA_HOME: home,
      XDG_CONFIG_HOME: home,
      SITE_ADDRESS: `http://127.0.0.1:${port}`,
      API_UPSTREAMS: apiPorts.map((p) => `127.0.0.1:${p}`).join(' '),
      LB_COOKIE_SECRET,
      CADDY_ADMIN: `127.0.0.1:${adminPort}`,
    },
  });
  const output: string[] = [];
  child.stdout.on('data', (d) => output.push(String(d)));
  child.stderr.on('data', (d) => output.push(String(d)));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const url = `http://127.0.0.1:${port}`;
  await waitFor(async () => {
    if (child.exitCode !== null) throw new Error(`caddy exited ${child.exitCode}:\n${output.join('')}`);
    return (await fetch(`http://127.0.0.1:${adminPort}/config/`).catch(() => undefined))?.ok;
  }, 30_000);
  return {
    url,
    output,
    async close() {
      if (child.exitCode === null) child.kill('SIGTERM');
      await exited;
      fs.rmSync(home, { recursive: true, force: true });
    },
  };
}
