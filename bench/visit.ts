import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { io as connect, type Socket } from 'socket.io-client';
import type pg from 'pg';
import { photo } from '../tests/support/images.ts';
import { GUEST_PASSWORD, cpuSeconds, postgresCpu, rssBytes, signIn, spread, startApp, startServer } from './support.ts';

const VISITORS = Number(process.env.BENCH_VISITORS ?? 300);
const ARTWORKS = 24;
/** A browser opens about six connections per host. */
const PARALLEL_PER_VISITOR = 6;

const PROBE = path.resolve(import.meta.dirname, 'probe.ts');
/** BENCH_VISIT_STEPS: also count each step of a visit, and profile the app in each crowd (bench/probe.ts). */
const STEPS = !!process.env.BENCH_VISIT_STEPS;

/** CPU seconds and resident memory of a process, from /proc. */
function usage(pid: number) {
  return { cpu: cpuSeconds(pid), rss: rssBytes(pid) };
}

interface Card {
  src: string;
  srcSet: string;
}

/** The card width a visitor's browser picks: a third each of desktop (1x), tablet and phone (3x) screens. */
const widthFor = (visitor: number) => [320, 480, 640][visitor % 3]!;
const pick = (card: Card, width: number) =>
  card.srcSet
    .split(', ')
    .map((c) => c.split(' '))
    .find((c) => c[1] === `${width}w`)![0]!;

/** Live messages the visitors' sockets were sent, by event, since the last crowd began. */
let liveMessages: Record<string, number> = {};

async function visit(base: string, password: string, visitor: number, sockets: Socket[]) {
  const sessionToken = await signIn(base, password);
  const headers = { 'x-session-token': sessionToken };
  const socket = connect(base, { auth: { token: sessionToken }, transports: ['websocket'], reconnection: false });
  sockets.push(socket);
  socket.onAny((event: string) => (liveMessages[event] = (liveMessages[event] ?? 0) + 1));
  const connected = new Promise<void>((resolve, reject) => {
    socket.once('connect', () => resolve());
    socket.once('connect_error', reject);
  });
  const res = await fetch(`${base}/api/gallery`, { headers: { ...headers, 'accept-encoding': 'gzip' } });
  if (!res.ok) throw new Error(`gallery ${res.status}`);
  const page = (await res.json()) as { items: Array<{ card?: Card | null }> };
  const urls = page.items.flatMap((i) => (i.card ? [pick(i.card, widthFor(visitor))] : []));
  let bytes = 0;
  let next = 0;
  await Promise.all(
    Array.from({ length: PARALLEL_PER_VISITOR }, async () => {
      for (let i = next++; i < urls.length; i = next++) {
        const image = await fetch(`${base}${urls[i]}`, { headers });
        if (!image.ok) throw new Error(`image ${image.status}`);
        bytes += (await image.arrayBuffer()).byteLength;
      }
    }),
  );
  await connected;
  return { images: urls.length, bytes };
}

/** The bytes of an answer as received: status line, headers and body. */
async function received(res: Response) {
  let head = `HTTP/1.1 ${res.status} ${res.statusText}\r\n`.length + 2;
  for (const [name, value] of res.headers) {
    if (name === 'set-cookie') continue;
    head += name.length + value.length + 4;
  }
  for (const cookie of res.headers.getSetCookie()) head += 'set-cookie'.length + cookie.length + 4;
  const body = (await res.arrayBuffer()).byteLength;
  return { head, body, ok: res.ok, res };
}

/** What the probe in a server counted since the last call: CPU ms and SQL statements by their first words. */
async function probe(pid: number, file: string) {
  fs.rmSync(file, { force: true });
  process.kill(pid, 'SIGUSR2');
  for (let i = 0; !fs.existsSync(file); i++) {
    if (i > 500) throw new Error('the probe did not answer');
    await sleep(10);
  }
  return JSON.parse(fs.readFileSync(file, 'utf8')) as { cpuMs: number; statements: Record<string, number> };
}

interface Step {
  requests: number;
  head: number;
  body: number;
  cpuMs: number;
  statements: Record<string, number>;
}

/**
 * One visitor's steps, each on its own: HTTP requests (for the socket, WebSocket frames each way),
 * bytes received, and (from the probe) the server's CPU and SQL statements. The socket is timed until
 * 300 ms after it connected, so that its welcome and the presence count are in its step.
 */
async function steps(base: string, password: string, visitor: number, pid: number, file: string) {
  const out: Record<string, Step> = {};
  const measure = async (name: string, run: () => Promise<Omit<Step, 'cpuMs' | 'statements'>>) => {
    await probe(pid, file);
    const r = await run();
    const p = await probe(pid, file);
    out[name] = { ...r, cpuMs: p.cpuMs, statements: p.statements };
  };
  let token = '';
  await measure('login', async () => {
    const r = await received(
      await fetch(`${base}/api/auth/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ password }),
      }),
    );
    token = loginToken(r.res);
    return { requests: 1, head: r.head, body: r.body };
  });
  let socket: Socket | undefined;
  await measure('socket (WebSocket: upgrade, socket.io connect, welcome, presence)', async () => {
    socket = connect(base, { auth: { token }, transports: ['websocket'], reconnection: false });
    let frames = 0;
    let bytes = 0;
    socket.io.engine.on('packet', (packet) => {
      frames++;
      bytes += 1 + (typeof packet.data === 'string' ? packet.data.length : 0);
    });
    socket.io.engine.on('packetCreate', () => frames++);
    await new Promise<void>((resolve, reject) => {
      socket!.once('connect', () => resolve());
      socket!.once('connect_error', reject);
    });
    await sleep(300);
    // the upgrade's 101 answer: about 130 bytes of headers
    return { requests: 1 + frames, head: 130, body: bytes };
  });
  const headers = { 'x-session-token': token };
  let urls: string[] = [];
  await measure('gallery page 1 (gzip)', async () => {
    const r = await received(
      await fetch(`${base}/api/gallery`, { headers: { ...headers, 'accept-encoding': 'gzip' } }),
    );
    return { requests: 1, head: r.head, body: r.body };
  });
  const page = (await (await fetch(`${base}/api/gallery`, { headers })).json()) as {
    items: Array<{ card?: Card | null }>;
  };
  urls = page.items.flatMap((i) => (i.card ? [pick(i.card, widthFor(visitor))] : []));
  await measure(`${urls.length} card images`, async () => {
    let head = 0;
    let body = 0;
    for (const url of urls) {
      const r = await received(await fetch(`${base}${url}`, { headers }));
      if (!r.ok) throw new Error(`image ${r.res.status}`);
      head += r.head;
      body += r.body;
    }
    return { requests: urls.length, head, body };
  });
  socket?.close();
  return out;
}

/** The login answer's token (its body is read by then: the cookie carries the same token). */
function loginToken(res: Response) {
  const cookie = res.headers.getSetCookie().find((c) => c.startsWith('tg_session='));
  return cookie ? decodeURIComponent(cookie.split(';')[0]!.slice('tg_session='.length)) : 'static';
}

/** Steps of VISITS visitors one after another: the first, and the mean of the others. */
async function stepTable(name: string, base: string, password: string, pid: number, file: string) {
  const VISITS = 5;
  const all: Array<Record<string, Step>> = [];
  for (let v = 0; v < VISITS; v++) all.push(await steps(base, password, v, pid, file));
  const lines: string[] = [];
  for (const step of Object.keys(all[0]!)) {
    const of = all.map((a) => a[step]!);
    const mean = (f: (s: Step) => number) => of.reduce((sum, s) => sum + f(s), 0) / of.length;
    const statements = new Map<string, number>();
    for (const s of of)
      for (const [k, n] of Object.entries(s.statements)) statements.set(k, (statements.get(k) ?? 0) + n);
    const listed = [...statements]
      .sort((a, b) => b[1] - a[1])
      .map(([k, n]) => `${(n / of.length).toFixed(1)}× \`${k.replace(/\|/g, '\\|')}\``)
      .join('<br>');
    lines.push(
      `| ${name} | ${step} | ${mean((s) => s.requests).toFixed(0)} | ${mean((s) => s.head).toFixed(0)} + ${mean((s) => s.body).toFixed(0)} B | ${mean((s) => s.cpuMs).toFixed(1)} ms | ${listed || 'none'} |`,
    );
  }
  return lines;
}

/** VISITORS visitors start at the same moment; each logs in, opens its socket, loads page 1 and its card images. */
async function crowd(base: string, password: string, pid: number, database: (() => number) | null) {
  const sockets: Socket[] = [];
  const client = process.cpuUsage();
  liveMessages = {};
  const databaseBefore = database?.() ?? NaN;
  const times: number[] = [];
  let failures = 0;
  let images = 0;
  let bytes = 0;
  const before = usage(pid);
  let peak = before.rss;
  const sampler = setInterval(() => (peak = Math.max(peak, usage(pid).rss)), 50);
  const started = performance.now();
  await Promise.all(
    Array.from({ length: VISITORS }, async (_, v) => {
      try {
        const r = await visit(base, password, v, sockets);
        times.push(performance.now() - started);
        images += r.images;
        bytes += r.bytes;
      } catch (error) {
        failures++;
        if (failures <= 3) console.error(`visitor ${v}:`, error instanceof Error ? error.message : error);
      }
    }),
  );
  const wall = (performance.now() - started) / 1000;
  clearInterval(sampler);
  const after = usage(pid);
  const clientUsed = process.cpuUsage(client);
  const databaseSeconds = (database?.() ?? NaN) - databaseBefore;
  for (const s of sockets) s.close();
  const { p50, p95, max } = spread(times);
  return {
    p50,
    p95,
    max,
    failures,
    images,
    mb: bytes / VISITORS / 1e6,
    cpu: ((after.cpu - before.cpu) / wall) * 100,
    cpuSeconds: after.cpu - before.cpu,
    clientSeconds: (clientUsed.user + clientUsed.system) / 1e6,
    messages: Object.entries(liveMessages)
      .map(([event, n]) => `${n} ${event}`)
      .join(', '),
    databaseSeconds,
    rssBefore: before.rss / 2 ** 20,
    rssPeak: peak / 2 ** 20,
  };
}

/**
 * The reveal: VISITORS phones open the gallery at once. The real server (one process, role all) with
 * ARTWORKS approved photos; the card images are made on first request, as on the day. Baseline: the
 * same visit against the same bytes as static files.
 */
export async function benchVisit(pool: pg.Pool, databaseUrl: string) {
  const staticDir = fs.mkdtempSync(path.join(os.tmpdir(), 'tribute-bench-static-'));
  const probeFile = path.join(staticDir, '..', `${path.basename(staticDir)}-probe.json`);
  const profileDir = process.env.BENCH_VISIT_PROFILE_DIR;
  const probeEnv: Record<string, string> = STEPS
    ? {
        NODE_OPTIONS: `${process.env.NODE_OPTIONS ?? ''} --import ${PROBE}`,
        BENCH_PROBE_FILE: probeFile,
        ...(profileDir ? { BENCH_PROBE_PROFILE_DIR: profileDir } : {}),
      }
    : {};
  const app = await startApp(databaseUrl, probeEnv);
  const database = await postgresCpu(pool);
  let baselineServer: Awaited<ReturnType<typeof startServer>> | undefined;
  try {
    const base = app.base;
    console.error(`visit: server up; uploading ${ARTWORKS} photos`);
    let guest = await app.login();
    const admin = await app.admin();
    const ids: number[] = [];
    for (let i = 0; i < ARTWORKS; i++) {
      // a colleague submits a few; the submissions limit is per visitor
      if (i % 10 === 9) guest = await app.login();
      if (process.env.BENCH_DEBUG) console.error(`visit: submitting artwork ${i + 1}`);
      const res = await app.call('POST', '/api/artworks', guest, {
        title: `Photo ${i + 1}`,
        description: '',
        artistName: 'Bench Artist',
        email: 'artist@example.com',
        imageData: `data:image/jpeg;base64,${(await photo(i + 1)).toString('base64')}`,
        isFromCanvas: 'false',
      });
      if (res.status !== 201) throw new Error(`artwork ${res.status} ${await res.text()}`);
      ids.push(((await res.json()) as { id: number }).id);
      if (process.env.BENCH_DEBUG) console.error(`visit: artwork ${i + 1} submitted`);
    }
    for (let polls = 0; ;) {
      const { rows } = await pool.query(
        `SELECT count(*)::int AS n FROM catalog_items WHERE kind = 'artwork' AND image ? 'display'`,
      );
      if (rows[0].n >= ARTWORKS) break;
      if (++polls % 25 === 0) console.error(`visit: ${rows[0].n} of ${ARTWORKS} renditions made`);
      await sleep(200);
    }
    console.error('visit: renditions made; approving');
    for (const id of ids) {
      const res = await app.call('PATCH', `/api/admin/artworks/${id}`, admin, { status: 'approved' });
      if (!res.ok) throw new Error(`approve ${res.status}`);
    }
    // settle after the writes, so the crowd meets a quiet server
    await sleep(2000);

    const spans: string[] = [];
    const span = async (name: string) => {
      if (!STEPS) return;
      const p = await probe(app.process.pid!, probeFile);
      const total = Object.values(p.statements).reduce((a, b) => a + b, 0);
      const top = Object.entries(p.statements)
        .slice(0, 8)
        .map(([k, n]) => `${n}× \`${k.replace(/\|/g, '\\|')}\``)
        .join('<br>');
      spans.push(`| ${name} | ${p.cpuMs.toFixed(0)} ms | ${total} | ${top} |`);
    };
    await span('before the crowds');
    if (STEPS) {
      // what the app does on its own (projections, jobs, presence) while nobody visits
      await sleep(5000);
      await span('5 s with nobody visiting');
    }
    const cold = await crowd(base, GUEST_PASSWORD, app.process.pid!, database);
    await span('first crowd (cold)');
    // the same crowd again: card images in memory, pages cached
    const warm = await crowd(base, GUEST_PASSWORD, app.process.pid!, database);
    await span('second crowd (warm)');
    const stepRows = STEPS ? await stepTable('the app (warm)', base, GUEST_PASSWORD, app.process.pid!, probeFile) : [];

    // the same bytes as static files: the page, and every card image in the widths visitors took
    const page = await fetch(`${base}/api/gallery`, { headers: { 'x-session-token': guest } });
    const body = await page.text();
    fs.mkdirSync(path.join(staticDir, 'api'), { recursive: true });
    fs.writeFileSync(path.join(staticDir, 'api', 'gallery'), body);
    for (const item of (JSON.parse(body) as { items: Array<{ card?: Card | null }> }).items) {
      if (!item.card) continue;
      for (const width of [320, 480, 640]) {
        const url = pick(item.card, width);
        const file = path.join(staticDir, url);
        fs.mkdirSync(path.dirname(file), { recursive: true });
        const image = await fetch(`${base}${url}`, { headers: { 'x-session-token': guest } });
        fs.writeFileSync(file, Buffer.from(await image.arrayBuffer()));
      }
    }
    baselineServer = await startServer('bench/staticVisitServer.ts', {
      STATIC_DIR: staticDir,
      ...probeEnv,
      BENCH_PROBE_PROFILE_DIR: '',
    });
    const baseline = await crowd(baselineServer.base, GUEST_PASSWORD, baselineServer.process.pid!, database);
    if (STEPS) {
      const p = await probe(baselineServer.process.pid!, probeFile);
      spans.push(`| baseline crowd (static files) and its start | ${p.cpuMs.toFixed(0)} ms | 0 | |`);
      stepRows.push(
        ...(await stepTable(
          'static files',
          baselineServer.base,
          GUEST_PASSWORD,
          baselineServer.process.pid!,
          probeFile,
        )),
      );
    }

    const row = (name: string, r: typeof cold) =>
      `| ${name} | ${r.p50.toFixed(0)} ms | ${r.p95.toFixed(0)} ms | ${r.max.toFixed(0)} ms | ${r.failures} | ${r.images} | ${r.mb.toFixed(2)} MB | ${r.cpu.toFixed(0)}% (${r.cpuSeconds.toFixed(1)} s) | ${r.databaseSeconds.toFixed(1)} s | ${r.clientSeconds.toFixed(1)} s | ${r.rssBefore.toFixed(0)} → ${r.rssPeak.toFixed(0)} MiB | ${r.messages || 'none'} |`;
    return [
      `### A whole visit at reveal scale: ${VISITORS} visitors at once (login, socket, gallery page 1, its ${ARTWORKS > 20 ? 20 : ARTWORKS} card images)`,
      '',
      `Each visitor starts at the same moment, loads its images ${PARALLEL_PER_VISITOR} at a time (as a browser does), and picks the`,
      'card width a desktop (320w), tablet (480w) or phone at 3x (640w) would, a third each. Time: from the start until the',
      "visitor has the page, all its images and its socket. The first crowd meets cold caches (no gallery page cached, card images on disk where the renditions job put them, none in memory); a second crowd then runs against the warm server. CPU: the server process's user+system time over the run's wall time (200% = both cores); PostgreSQL's (every process of the cluster) and the visitors' (this benchmark process) in seconds over the same crowd.",
      'The visitors run in the benchmark process on the same 2 cores.',
      '',
      "| server | p50 | p95 | max | failures | images | per visitor | server CPU | PostgreSQL CPU | visitors' CPU | server RSS | live messages sent |",
      '|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|',
      row('the app, first crowd: cold caches (card images on disk)', cold),
      row('the app, second crowd: the same again (card images in memory, pages cached)', warm),
      row('baseline: the same bytes as static files (express.static), fixed login, bare socket.io', baseline),
      ...(STEPS
        ? [
            '',
            'Each crowd as the probe in the server counted it (CPU of the app process; SQL statements it sent, the most frequent first):',
            '',
            '| span | server CPU | SQL statements | most frequent |',
            '|---|---:|---:|---|',
            ...spans,
            '',
            'One visitor at a time after the crowds (the mean of 5): requests (for the socket: the upgrade and the WebSocket frames both ways), bytes received (headers + body), server CPU and SQL statements per visitor:',
            '',
            '| server | step | requests | bytes received | server CPU | SQL statements per visitor |',
            '|---|---|---:|---:|---:|---|',
            ...stepRows,
          ]
        : []),
    ].join('\n');
  } finally {
    await Promise.all([app.stop(), baselineServer?.stop()]);
    fs.rmSync(staticDir, { recursive: true, force: true });
    fs.rmSync(probeFile, { force: true });
  }
}
