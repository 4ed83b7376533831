import type { Socket } from 'socket.io-client';
import { setTimeout as sleep } from 'node:timers/promises';
import { closeSockets, cpuSeconds, openSockets, spread, withServers } from './support.ts';

const ARTISTS = Number(process.env.BENCH_MURAL_ARTISTS ?? 50);
const VIEWERS = Number(process.env.BENCH_MURAL_VIEWERS ?? 300);
const SECONDS = Number(process.env.BENCH_MURAL_SECONDS ?? 30);
const EVERY_MS = 2000;
const POINTS = 200;

/** A wavy 200-point stroke; its colour is its number, so a viewer knows which POST it answers. */
function strokeOf(n: number, artist: number) {
  const y0 = 20 + ((artist * 15) % 760);
  const points = Array.from({ length: POINTS }, (_, i) => [
    Math.round((i * 1590) / POINTS + 5),
    Math.round(y0 + 10 * Math.sin(i / 8 + n)),
  ]);
  return { tool: 'brush', color: `#${n.toString(16).padStart(6, '0')}`, size: 4, opacity: 100, points };
}

/**
 * ARTISTS send a 200-point stroke every 2 s each (spread evenly) for SECONDS; VIEWERS sockets listen.
 * The delay from each stroke's POST to each viewer's `mural:stroke-added`, and the server's CPU.
 */
async function run(
  url: string,
  pid: number,
  post: (artist: number, body: unknown) => Promise<number>,
  sockets: Socket[],
) {
  const sentAt = new Map<string, number>();
  const delays: number[] = [];
  for (const s of sockets) {
    s.on('mural:stroke-added', (p: { stroke: { color: string } }) => {
      const at = sentAt.get(p.stroke.color);
      if (at !== undefined) delays.push(performance.now() - at);
    });
  }
  let n = 1;
  let refused = 0;
  let failed = 0;
  const cpuBefore = cpuSeconds(pid);
  const started = performance.now();
  const timers: NodeJS.Timeout[] = [];
  const inFlight: Array<Promise<void>> = [];
  await new Promise<void>((resolve) => {
    for (let a = 0; a < ARTISTS; a++) {
      const fire = () => {
        if (performance.now() - started >= SECONDS * 1000) return;
        const body = strokeOf(n++, a);
        sentAt.set(body.color, performance.now());
        inFlight.push(
          post(a, body).then(
            (status) => {
              if (status === 429) refused++;
              else if (status !== 201) failed++;
            },
            () => void failed++,
          ),
        );
      };
      timers.push(
        setTimeout(
          () => {
            fire();
            timers.push(setInterval(fire, EVERY_MS));
          },
          (a * EVERY_MS) / ARTISTS,
        ),
      );
    }
    setTimeout(resolve, SECONDS * 1000);
  });
  for (const t of timers) clearInterval(t);
  await Promise.all(inFlight);
  const expected = (sentAt.size - refused - failed) * sockets.length;
  const deadline = performance.now() + 10_000;
  while (delays.length < expected && performance.now() < deadline) await sleep(50);
  const elapsed = (performance.now() - started) / 1000;
  const cpu = cpuSeconds(pid) - cpuBefore;
  for (const s of sockets) s.off('mural:stroke-added');
  const { p50, p99, max } = spread(delays);
  return {
    strokes: sentAt.size,
    refused,
    failed,
    delivered: delays.length,
    expected,
    p50,
    p99,
    max,
    cpuPercent: (cpu / elapsed) * 100,
    url,
  };
}

export function benchMural(databaseUrl: string) {
  const viewers = (auth: Record<string, unknown>) => Array.from({ length: VIEWERS }, () => auth);
  return withServers(databaseUrl, { script: 'bench/bareMuralServer.ts' }, async (app, bare, sockets) => {
    const [base, bareBase] = [app.base, bare.base];
    const artists = await app.guests(ARTISTS);
    await openSockets(sockets, base, viewers({ token: await app.login(), mural: true }));
    const ours = await run(
      base,
      app.process.pid!,
      async (a, body) => {
        const r = await app.call('POST', '/api/mural/strokes', artists[a]!, body);
        await r.arrayBuffer();
        return r.status;
      },
      sockets,
    );
    closeSockets(sockets);

    await openSockets(sockets, bareBase, viewers({}));
    const baseline = await run(
      bareBase,
      bare.process.pid!,
      async (_a, body) => {
        const r = await fetch(`${bareBase}/stroke`, { method: 'POST', body: JSON.stringify(body) });
        await r.arrayBuffer();
        return r.status;
      },
      sockets,
    );
    const row = (name: string, r: typeof ours) =>
      `| ${name} | ${r.strokes} | ${r.delivered} / ${r.expected} | ${r.p50.toFixed(1)} ms | ${r.p99.toFixed(1)} ms | ${r.max.toFixed(1)} ms | ${r.cpuPercent.toFixed(0)}% | ${r.refused} / ${r.failed} |`;
    return [
      `### Mural: ${ARTISTS} artists each sending a ${POINTS}-point stroke every ${EVERY_MS / 1000} s to ${VIEWERS} viewers for ${SECONDS} s`,
      '',
      "From each stroke's POST being sent to each viewer's `mural:stroke-added`. CPU: the server process's user + system",
      'time over the run, as a share of one core. Viewers, artists and the server share the machine.',
      '',
      '| server | strokes | deliveries | p50 | p99 | max | server CPU | 429 / failed |',
      '|---|---:|---:|---:|---:|---:|---:|---:|',
      row('the app: POST → log → chain + catalog + outbox → tail → sockets', ours),
      row('baseline: bare socket.io broadcast, no database', baseline),
    ].join('\n');
  });
}
