import os from 'node:os';
import { setTimeout as sleep } from 'node:timers/promises';
import { cpuSeconds, GUEST_PASSWORD, spread, startApp, type App } from './support.ts';

/**
 * The reveal day with a prankster in the room (issue 20, CONTRACT §9). GUESTS colleagues, all behind
 * the office's one address, each open the link for the first time: log in, load the gallery, like,
 * react and draw a stroke on the mural, spread over SPREAD_MS. The same room is run twice on fresh
 * apps: quiet, then with a script that, from 20 addresses of its own, guesses passwords without
 * pause, logs in again and again without a cookie to mint visitors, and floods the mural with
 * 2,000-point strokes from each of them. Reported: the guests' login success and answer times in both
 * runs, and what the script achieved.
 */
const GUESTS = Number(process.env.BENCH_ABUSE_GUESTS ?? 300);
const SPREAD_MS = Number(process.env.BENCH_ABUSE_SPREAD_MS ?? 20_000);
const SCRIPT_ADDRESSES = 20;
/** which of the script's parts run: `guess` (passwords), `mint` (visitors, mural floods, stories) */
const PARTS = (process.env.BENCH_ABUSE_PARTS ?? 'guess,mint').split(',');
const OFFICE = '198.51.100.7';
const scriptAddress = (n: number) => `203.0.113.${(n % SCRIPT_ADDRESSES) + 1}`;

interface Call {
  status: number;
  ms: number;
  body: unknown;
}

/** One HTTP call as from `address` (the app trusts the loopback proxy's X-Forwarded-For). */
async function call(app: App, address: string, method: string, url: string, token?: string, body?: unknown) {
  const started = performance.now();
  try {
    const r = await fetch(`${app.base}${url}`, {
      method,
      headers: {
        'x-forwarded-for': address,
        ...(token ? { 'x-session-token': token } : {}),
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
      signal: AbortSignal.timeout(30_000),
    });
    const text = await r.text();
    let parsed: unknown = text;
    try {
      parsed = JSON.parse(text);
    } catch {
      // not JSON: kept as text
    }
    return { status: r.status, ms: performance.now() - started, body: parsed } satisfies Call;
  } catch {
    return { status: 0, ms: performance.now() - started, body: null } satisfies Call;
  }
}

function stroke(n: number, points: number) {
  const y = 20 + ((n * 37) % 760);
  return {
    tool: 'brush',
    color: '#336699',
    size: 4,
    opacity: 100,
    points: Array.from({ length: points }, (_, i) => [Math.round((i * 1590) / points + 5), y]),
  };
}

/** The room: every guest's visit; login outcomes and the answer times of every call after it. */
async function room(app: App, itemIds: number[]) {
  const logins = { ok: 0, refused: 0 };
  const times: number[] = [];
  const failures = new Map<number, number>();
  const note = (c: Call, expected: number[]) => {
    times.push(c.ms);
    if (!expected.includes(c.status)) failures.set(c.status, (failures.get(c.status) ?? 0) + 1);
  };
  await Promise.all(
    Array.from({ length: GUESTS }, async (_, n) => {
      await sleep((n / GUESTS) * SPREAD_MS);
      const login = await call(app, OFFICE, 'POST', '/api/auth/login', undefined, { password: GUEST_PASSWORD });
      times.push(login.ms);
      if (login.status !== 200) return void logins.refused++;
      logins.ok++;
      const token = (login.body as { sessionToken: string }).sessionToken;
      const item = itemIds[n % itemIds.length]!;
      note(await call(app, OFFICE, 'GET', '/api/gallery?page=1', token), [200]);
      note(await call(app, OFFICE, 'GET', `/api/stories/${item}`, token), [200]);
      note(await call(app, OFFICE, 'POST', `/api/stories/${item}/likes`, token, {}), [200]);
      note(await call(app, OFFICE, 'POST', `/api/stories/${item}/reactions`, token, { emoji: '👏' }), [202]);
      note(await call(app, OFFICE, 'POST', '/api/mural/strokes', token, stroke(n, 100)), [201]);
      note(await call(app, OFFICE, 'GET', '/api/gallery?page=1', token), [200]);
    }),
  );
  return { logins, times: spread(times), failures: Object.fromEntries(failures) };
}

/** The script, until `stop` is aborted; what it achieved. */
async function script(app: App, stop: AbortSignal) {
  const got = { guesses: 0, guessesRefused: 0, minted: 0, mintRefused: 0, points: 0, strokesRefused: 0, stories: 0 };
  const guesser = async (n: number) => {
    for (let i = 0; !stop.aborted; i++) {
      const c = await call(app, scriptAddress(n), 'POST', '/api/auth/login', undefined, {
        password: `guess-${n}-${i}`,
      });
      if (c.status === 429) {
        got.guessesRefused++;
        await sleep(200);
      } else got.guesses++;
    }
  };
  const minter = async (n: number) => {
    for (let i = 0; !stop.aborted; i++) {
      const address = scriptAddress(n + i);
      const login = await call(app, address, 'POST', '/api/auth/login', undefined, { password: GUEST_PASSWORD });
      if (login.status !== 200) {
        got.mintRefused++;
        await sleep(200);
        continue;
      }
      got.minted++;
      const token = (login.body as { sessionToken: string }).sessionToken;
      for (let s = 0; s < 5 && !stop.aborted; s++) {
        const c = await call(app, address, 'POST', '/api/mural/strokes', token, stroke(i * 5 + s, 2000));
        if (c.status === 201) got.points += 2000;
        else got.strokesRefused++;
      }
      const story = await call(app, address, 'POST', '/api/stories', token, {
        content: 'spam '.repeat(50),
        authorName: 'Prankster',
        email: `p${n}-${i}@example.com`,
        isAnonymous: false,
      });
      if (story.status === 201) got.stories++;
    }
  };
  await Promise.all([
    ...(PARTS.includes('guess') ? Array.from({ length: SCRIPT_ADDRESSES }, (_, n) => guesser(n)) : []),
    ...(PARTS.includes('mint') ? Array.from({ length: 4 }, (_, n) => minter(n * 5)) : []),
  ]);
  return got;
}

async function run(databaseUrl: () => Promise<{ url: string; stop: () => Promise<void> }>, withScript: boolean) {
  const db = await databaseUrl();
  const app = await startApp(db.url, { TRUST_PROXY: 'loopback' });
  try {
    const admin = await app.admin();
    const author = await app.login();
    const itemIds: number[] = [];
    for (let i = 0; i < 5; i++) itemIds.push(await app.approvedStory(author, admin, `A story to like, number ${i}.`));
    const stop = new AbortController();
    const pid = app.process.pid!;
    const load = os.loadavg()[0]!;
    const cpuBefore = cpuSeconds(pid);
    const started = performance.now();
    const attack = withScript ? script(app, stop.signal) : Promise.resolve(undefined);
    // the script has a head start: the room arrives while it is already at work
    if (withScript) await sleep(3000);
    const result = await room(app, itemIds);
    stop.abort();
    const seconds = (performance.now() - started) / 1000;
    // the app's CPU (user + system) against the wall clock: a figure the machine's other work bends less
    const cpu = cpuSeconds(pid) - cpuBefore;
    return { ...result, script: await attack, load: [load, os.loadavg()[0]!], seconds, cpu };
  } finally {
    await app.stop();
    await db.stop();
  }
}

export async function benchAbuse(fresh: () => Promise<{ url: string; stop: () => Promise<void> }>) {
  const quiet = await run(fresh, false);
  const attacked = await run(fresh, true);
  const row = (name: string, r: typeof quiet) =>
    `| ${name} | ${r.logins.ok}/${GUESTS} (${((100 * r.logins.ok) / GUESTS).toFixed(1)} %) | ${r.times.p50.toFixed(0)} | ${r.times.p95.toFixed(0)} | ${r.times.p99.toFixed(0)} | ${JSON.stringify(r.failures)} | ${r.cpu.toFixed(1)} s in ${r.seconds.toFixed(0)} s | ${r.load.map((l) => l.toFixed(1)).join(' → ')} |`;
  const s = attacked.script!;
  return [
    `### Reveal day with a prankster (${GUESTS} guests behind one address over ${SPREAD_MS / 1000} s; script from ${SCRIPT_ADDRESSES} addresses: ${PARTS.join(', ')})`,
    '',
    '| run | guests logged in | p50 ms | p95 ms | p99 ms | unexpected answers (status: count; 0 = no answer in 30 s) | app CPU | load average (1 min), start → end |',
    '|---|---|---|---|---|---|---|---|',
    row('quiet (baseline)', quiet),
    row('with the script', attacked),
    '',
    '| the script | count |',
    '|---|---|',
    `| wrong passwords checked | ${s.guesses} |`,
    `| wrong passwords refused unchecked (429) | ${s.guessesRefused} |`,
    `| visitors minted (logins with the password, no cookie) | ${s.minted} |`,
    `| logins refused | ${s.mintRefused} |`,
    `| mural points accepted | ${s.points} |`,
    `| mural strokes refused | ${s.strokesRefused} |`,
    `| stories accepted into the queue | ${s.stories} |`,
  ].join('\n');
}
