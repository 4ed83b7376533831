import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { io as connect, type Socket } from 'socket.io-client';
import { freePort } from '#db/postgres.ts';
import { cpuSeconds, percentile, startProcess } from './support.ts';

const FOLLOWERS = Number(process.env.BENCH_FOLLOWERS ?? 300);
const NEXTS = 20;
const TAPS_PER_SECOND = 3;
const REACTION_MS = 20_000;

async function connectAll(url: string, tokens: string[]): Promise<Socket[]> {
  const sockets: Socket[] = [];
  for (let i = 0; i < tokens.length; i += 50) {
    await Promise.all(
      tokens.slice(i, i + 50).map((token) => {
        const s = connect(url, { auth: { token }, transports: ['websocket'], reconnection: false, forceNew: true });
        sockets.push(s);
        return new Promise<void>((resolve, reject) => {
          s.once('connect', () => resolve());
          s.once('connect_error', reject);
        });
      }),
    );
  }
  return sockets;
}

/** For each of NEXTS triggers, the time from sending it to each socket's `event`. */
async function measure(sockets: Socket[], event: string, trigger: () => Promise<unknown>) {
  const delays: number[] = [];
  let missing = 0;
  for (let round = 0; round < NEXTS; round++) {
    const received: number[] = [];
    const all = new Promise<void>((resolve) => {
      for (const s of sockets) {
        s.once(event, () => {
          received.push(performance.now());
          if (received.length === sockets.length) resolve();
        });
      }
    });
    const sentAt = performance.now();
    await trigger();
    await Promise.race([all, new Promise((r) => setTimeout(r, 5000))]);
    missing += sockets.length - received.length;
    for (const t of received) delays.push(t - sentAt);
    for (const s of sockets) s.off(event);
    await new Promise((r) => setTimeout(r, 150));
  }
  delays.sort((a, b) => a - b);
  return { p50: percentile(delays, 50), p99: percentile(delays, 99), max: delays.at(-1)!, n: delays.length, missing };
}

/**
 * The show (CONTRACT §7): FOLLOWERS guests follow while the admin taps `next` NEXTS times, timed from
 * the presenter's request to each follower's `show:changed`, beside a bare socket.io broadcast; then
 * every follower taps TAPS_PER_SECOND reactions a second for 20 s: the server's CPU and the rate of
 * `reactions:burst` per item.
 */
export async function benchShow(databaseUrl: string) {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'tribute-bench-data-'));
  const [appPort, barePort] = [await freePort(), await freePort()];
  const app = await startProcess(['api/main.ts'], {
    PORT: String(appPort),
    DATABASE_URL: databaseUrl,
    DATA_DIR: dataDir,
    GALLERY_PASSWORD: 'bench',
    ADMIN_PASSWORD: 'bench-admin',
  });
  const bare = await startProcess(['bench/bareSocketServer.ts'], { PORT: String(barePort) });
  const base = `http://127.0.0.1:${appPort}`;
  const sockets: Socket[] = [];
  try {
    const login = async (password: string) => {
      const r = await fetch(`${base}/api/auth/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ password }),
      });
      return ((await r.json()) as { sessionToken: string }).sessionToken;
    };
    const call = (method: string, url: string, token: string, body?: unknown) =>
      fetch(`${base}${url}`, {
        method,
        headers: { 'x-session-token': token, ...(body ? { 'content-type': 'application/json' } : {}) },
        body: body ? JSON.stringify(body) : undefined,
      });
    const admin = await login('bench-admin');
    const guests: string[] = [];
    for (let i = 0; i < FOLLOWERS; i += 20) {
      guests.push(...(await Promise.all(Array.from({ length: Math.min(20, FOLLOWERS - i) }, () => login('bench')))));
    }
    for (let i = 0; i <= NEXTS; i++) {
      const r = await call('POST', '/api/stories', guests[0]!, {
        content: `Story ${i} for the show`,
        authorName: 'Bench',
        email: 'b@example.com',
      });
      const { id } = (await r.json()) as { id: number };
      await call('PATCH', `/api/admin/stories/${id}`, admin, { status: 'approved' });
    }
    await call('POST', '/api/show', admin, { action: 'stop' });
    await call('POST', '/api/show', admin, { action: 'start' });

    sockets.push(...(await connectAll(base, guests)));
    const ours = await measure(sockets, 'show:changed', () => call('POST', '/api/show', admin, { action: 'next' }));
    const { current } = (await (await call('GET', '/api/show', admin)).json()) as {
      current: { kind: string; id: number };
    };

    // reactions: every follower taps 3 a second on the current item for 20 s
    const bursts: number[] = [];
    sockets[0]!.on('reactions:burst', (p: { id: number }) => p.id === current.id && bursts.push(performance.now()));
    const statuses = new Map<number, number>();
    const cpuBefore = cpuSeconds(app.pid!);
    const startedAt = performance.now();
    const emojis = ['👏', '❤️', '😂', '😮', '🎉', '🙏'];
    // taps go out on schedule whether or not earlier ones were answered (a finger does not wait)
    const tapLatency: number[] = [];
    const pending: Array<Promise<void>> = [];
    await Promise.all(
      guests.map(async (token, n) => {
        const offset = (n / guests.length) * (1000 / TAPS_PER_SECOND);
        for (let i = 0; offset + (i * 1000) / TAPS_PER_SECOND < REACTION_MS; i++) {
          const due = startedAt + offset + (i * 1000) / TAPS_PER_SECOND;
          await new Promise((r) => setTimeout(r, Math.max(0, due - performance.now())));
          const sent = performance.now();
          pending.push(
            call('POST', `/api/stories/${current.id}/reactions`, token, { emoji: emojis[i % 6] })
              .then(async (r) => {
                await r.arrayBuffer();
                tapLatency.push(performance.now() - sent);
                statuses.set(r.status, (statuses.get(r.status) ?? 0) + 1);
              })
              .catch(() => void statuses.set(0, (statuses.get(0) ?? 0) + 1)),
          );
        }
      }),
    );
    await Promise.all(pending);
    tapLatency.sort((x, y) => x - y);
    const seconds = (performance.now() - startedAt) / 1000;
    const cpu = cpuSeconds(app.pid!) - cpuBefore;
    await new Promise((r) => setTimeout(r, 1000));
    const item = (await (await call('GET', `/api/stories/${current.id}`, admin)).json()) as {
      reactions: Record<string, number>;
    };
    const total = Object.values(item.reactions).reduce((a, b) => a + b, 0);
    const inWindow = bursts.filter((t) => t - startedAt <= REACTION_MS);
    let worstSecond = 0;
    for (let s = 0; s < REACTION_MS / 1000; s++) {
      const inSecond = inWindow.filter((t) => t - startedAt >= s * 1000 && t - startedAt < (s + 1) * 1000).length;
      worstSecond = Math.max(worstSecond, inSecond);
    }
    for (const s of sockets.splice(0)) s.close();

    sockets.push(
      ...(await connectAll(
        `http://127.0.0.1:${barePort}`,
        guests.map(() => ''),
      )),
    );
    const baseline = await measure(sockets, 'likes:changed', () =>
      fetch(`http://127.0.0.1:${barePort}/emit`, { method: 'POST' }),
    );
    const row = (name: string, r: typeof ours) =>
      `| ${name} | ${r.p50.toFixed(1)} ms | ${r.p99.toFixed(1)} ms | ${r.max.toFixed(1)} ms | ${r.n} | ${r.missing} |`;
    const taps = [...statuses.values()].reduce((a, b) => a + b, 0);
    return [
      `### The show: ${FOLLOWERS} followers, ${NEXTS} \`next\` taps, from the presenter's request to each follower's \`show:changed\``,
      '',
      '| server | p50 | p99 | max | deliveries | missing |',
      '|---|---:|---:|---:|---:|---:|',
      row('the app: POST /api/show → log → catalog + outbox → tail → sockets', ours),
      row('baseline: bare socket.io broadcast, no database', baseline),
      '',
      `### Reactions: ${FOLLOWERS} followers tapping ${TAPS_PER_SECOND} a second for ${REACTION_MS / 1000} s on one item`,
      '',
      '| taps | answered/s | answers | tap answer p50 / p99 | server CPU (API + worker, one process) | `reactions:burst` for the item | worst second | totals kept |',
      '|---:|---:|---|---:|---:|---:|---:|---:|',
      `| ${taps} | ${(taps / seconds).toFixed(0)} | ${[...statuses].map(([s, n]) => `${s || 'failed'}: ${n}`).join(', ')} | ${percentile(tapLatency, 50).toFixed(0)} / ${percentile(tapLatency, 99).toFixed(0)} ms | ${((cpu / seconds) * 100).toFixed(0)} % of a core | ${(inWindow.length / (REACTION_MS / 1000)).toFixed(1)}/s | ${worstSecond} | ${total} |`,
    ].join('\n');
  } finally {
    for (const s of sockets) s.close();
    app.kill('SIGTERM');
    bare.kill('SIGTERM');
    await Promise.all([new Promise((r) => app.once('exit', r)), new Promise((r) => bare.once('exit', r))]);
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}
