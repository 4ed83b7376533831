import { io as connect, type Socket } from 'socket.io-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ProjectionLagStatus } from '#contract/live.ts';
import { startCaddy, type RunningCaddy } from '../support/caddy.ts';
import {
  client,
  PASSWORDS,
  startSecondProcess,
  startTestServer,
  type SecondProcess,
  type TestServer,
} from '../support/server.ts';
import { waitFor } from '../support/wait.ts';

/**
 * The worker stops under load (docs/decisions/079): two API processes behind the real Caddy with
 * deploy/Caddyfile, one worker. While it is away the log grows past READY_MAX_LAG; the proxy keeps
 * both processes (their readiness is their own database), guests keep browsing and submitting, the
 * lag metric rises, screens are told they are catching up. When it comes back, the lag falls to 0
 * and every screen gets what it missed.
 */
const READY_MAX_LAG = 10;
const ENV = { READY_MAX_LAG: String(READY_MAX_LAG), TRUST_PROXY: 'loopback' };

let t: TestServer;
let api2: SecondProcess;
let worker: SecondProcess | undefined;
let caddy: RunningCaddy;
const sockets: Socket[] = [];
let guests: ReturnType<typeof guestsAtWork> | undefined;

beforeAll(async () => {
  t = await startTestServer(ENV, 'api');
  api2 = await startSecondProcess(t, ENV, 'api');
  worker = await startSecondProcess(t, ENV, 'worker');
  caddy = await startCaddy([t.server.port!, api2.server.port!]);
}, 120_000);

afterAll(async () => {
  await guests?.stop();
  for (const socket of sockets) socket.close();
  await caddy?.close();
  await worker?.close();
  await api2?.close();
  await t?.close();
});

async function login(role: keyof typeof PASSWORDS): Promise<string> {
  const res = await fetch(`${caddy.url}/api/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ password: PASSWORDS[role] }),
  });
  return ((await res.json()) as { sessionToken: string }).sessionToken;
}

/** One sample of the Prometheus text format, from an API process's own port (never through the proxy). */
async function catalogLag(url: string): Promise<number> {
  const text = await (await fetch(`${url}/metrics`)).text();
  const line = text.split('\n').find((l) => l.startsWith('projection_lag_events{projection="catalog"}'));
  return Number(line?.split(' ').at(-1));
}
async function readyChecks(url: string): Promise<number> {
  const text = await (await fetch(`${url}/metrics`)).text();
  const line = text
    .split('\n')
    .find((l) => l.startsWith('http_request_duration_seconds_count{') && l.includes('route="/ready"'));
  return Number(line?.split(' ').at(-1) ?? 0);
}

/** Guests browsing and sending stories through the proxy until stopped; every answer's status kept. */
function guestsAtWork(tokens: string[]) {
  const statuses: number[] = [];
  const sent: number[] = [];
  let running = true;
  const browse = async (token: string, index: number) => {
    const call = client(caddy.url, token);
    // a refused connection counts as a failed answer (status 0)
    const answer = (method: string, url: string, body?: unknown) =>
      call(method, url, body).catch(() => ({ status: 0, body: undefined }));
    for (let round = 0; running; round++) {
      statuses.push((await answer('GET', '/api/gallery')).status);
      // a visitor may send 30 stories an hour (api/limits): one every few rounds
      if (round % 4 === index % 4 && sent.length < tokens.length * 20) {
        const res = await answer('POST', '/api/stories', {
          content: `Sent under load ${index}.${round}`,
          authorName: 'Lou',
          email: 'lou@example.com',
        });
        statuses.push(res.status);
        if (res.status === 201) sent.push(res.body.id);
      }
      await new Promise((r) => setTimeout(r, 50));
    }
  };
  const done = Promise.all(tokens.map(browse));
  return {
    statuses,
    sent,
    async stop() {
      running = false;
      await done;
    },
  };
}

describe('the worker stopped under load', () => {
  it('costs no answer: guests browse and send, the lag rises and falls, screens catch up', async () => {
    const admin = client(caddy.url, await login('admin'));
    // stories waiting for the admin, known to the catalog before the worker goes
    const pending: number[] = [];
    for (let i = 0; i < 4; i++) {
      const res = await client(caddy.url, await login('guest'))('POST', '/api/stories', {
        content: `Waiting ${i}`,
        authorName: 'Lou',
        email: 'lou@example.com',
      });
      expect(res.status, JSON.stringify(res.body)).toBe(201);
      pending.push(res.body.id);
    }
    await waitFor(async () => (await catalogLag(t.url)) === 0);

    // a screen, through the proxy's WebSocket
    const added: number[] = [];
    const lagTold: ProjectionLagStatus[] = [];
    const screen = connect(caddy.url, { auth: { token: await login('guest') }, transports: ['websocket'] });
    sockets.push(screen);
    screen.on('gallery:item-added', ({ item }: { item: { id: number } }) => added.push(item.id));
    screen.on('projections:lag', (status) => lagTold.push(status));
    await waitFor(async () => lagTold.length > 0);
    expect(lagTold.at(-1)?.catchingUp).toBe(false);

    guests = guestsAtWork(await Promise.all(Array.from({ length: 4 }, () => login('guest'))));
    await worker!.close();
    worker = undefined;

    // the log grows past READY_MAX_LAG behind the stopped worker
    await waitFor(async () => (await catalogLag(t.url)) > READY_MAX_LAG, 60_000);
    // saved, and said so while the catalog is behind (202 with what was saved, docs/api.md)
    for (const id of pending) {
      expect(await admin('PATCH', `/api/admin/stories/${id}`, { status: 'approved' })).toMatchObject({
        status: 202,
        body: { success: true, id, status: 'approved' },
      });
    }
    // and stays there while Caddy health-checks both processes at least twice more
    const checked = await Promise.all([readyChecks(t.url), readyChecks(api2.url)]);
    await waitFor(
      async () => (await readyChecks(t.url)) >= checked[0]! + 2 && (await readyChecks(api2.url)) >= checked[1]! + 2,
      60_000,
    );
    expect(await catalogLag(api2.url)).toBeGreaterThan(READY_MAX_LAG);
    await waitFor(async () => lagTold.at(-1)?.catchingUp === true);
    const duringStall = guests.statuses.length;
    expect(added).toEqual([]);

    worker = await startSecondProcess(t, ENV, 'worker');
    await waitFor(async () => (await catalogLag(t.url)) === 0, 60_000);
    await waitFor(async () => lagTold.at(-1)?.catchingUp === false);
    await waitFor(async () => pending.every((id) => added.includes(id)), 30_000);
    await guests.stop();

    // not one answer refused or failed, before, during or after
    expect(guests.statuses.filter((s) => s >= 500)).toEqual([]);
    expect(new Set(guests.statuses)).toEqual(new Set([200, 201]));
    expect(duringStall).toBeGreaterThan(20);
    expect(guests.sent.length).toBeGreaterThan(0);
    // what was sent during the stall reached the catalog once the worker was back
    const { rows } = await t.db.pool.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM catalog_items WHERE kind = 'story' AND id = ANY($1::int[])`,
      [guests.sent],
    );
    expect(rows[0]!.n).toBe(guests.sent.length);
  }, 300_000);
});
