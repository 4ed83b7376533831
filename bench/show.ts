import { setTimeout as sleep } from 'node:timers/promises';
import type { Socket } from 'socket.io-client';
import { Phone } from './phones.ts';
import { broadcastRounds, closeSockets, cpuSeconds, openSockets, spread, withServers } from './support.ts';

const FOLLOWERS = Number(process.env.BENCH_FOLLOWERS ?? 300);
const NEXTS = 20;
const TAPS_PER_SECOND = 3;
const REACTION_MS = 20_000;
/** a phone that had no answer in this long gives up on the tap */
const TAP_TIMEOUT_MS = 10_000;

/** For each of NEXTS triggers, the time from sending it to each socket's `event`. */
async function measure(sockets: Socket[], event: string, trigger: () => Promise<unknown>) {
  const delays: number[] = [];
  let missing = 0;
  const rounds = await broadcastRounds(sockets, event, trigger, { rounds: NEXTS, timeoutMs: 5000, pauseMs: 150 });
  for (const { received, sentAt } of rounds) {
    missing += sockets.length - received.length;
    for (const t of received) delays.push(t - sentAt);
  }
  return { ...spread(delays), missing };
}

/**
 * Every phone taps TAPS_PER_SECOND a second for REACTION_MS, spread evenly over the room; a tap due
 * while the phone waits for its last answer is skipped. The answers, why failed taps failed, the
 * answer times, and the server's CPU over the run.
 */
async function tapFor(phones: Phone[], url: string, pid: number) {
  const emojis = ['👏', '❤️', '😂', '😮', '🎉', '🙏'];
  const statuses = new Map<number, number>();
  const failures = new Map<string, number>();
  const latency: number[] = [];
  let due = 0;
  let skipped = 0;
  const cpuBefore = cpuSeconds(pid);
  const startedAt = performance.now();
  const answers: Array<Promise<void>> = [];
  await Promise.all(
    phones.map(async (phone, n) => {
      const offset = (n / phones.length) * (1000 / TAPS_PER_SECOND);
      for (let i = 0; offset + (i * 1000) / TAPS_PER_SECOND < REACTION_MS; i++) {
        await sleep(Math.max(0, startedAt + offset + (i * 1000) / TAPS_PER_SECOND - performance.now()));
        due++;
        if (phone.busy) {
          skipped++;
          continue;
        }
        const sent = performance.now();
        answers.push(
          phone.post(url, { emoji: emojis[i % 6] }, TAP_TIMEOUT_MS).then((answer) => {
            if ('failed' in answer) return void failures.set(answer.failed, (failures.get(answer.failed) ?? 0) + 1);
            latency.push(performance.now() - sent);
            statuses.set(answer.status, (statuses.get(answer.status) ?? 0) + 1);
          }),
        );
      }
    }),
  );
  await Promise.all(answers);
  const seconds = (performance.now() - startedAt) / 1000;
  const cpu = ((cpuSeconds(pid) - cpuBefore) / seconds) * 100;
  return { due, sent: answers.length, skipped, statuses, failures, latency: spread(latency), seconds, cpu, startedAt };
}

/**
 * The show (CONTRACT §7): FOLLOWERS guests follow while the admin taps `next` NEXTS times, timed from
 * the presenter's request to each follower's `show:changed`, beside a bare socket.io broadcast; then
 * every follower taps TAPS_PER_SECOND reactions a second for 20 s from a phone of its own (one
 * keep-alive connection): what was answered, skipped and failed, the server's CPU and the rate of
 * `reactions:burst` per item.
 */
export function benchShow(databaseUrl: string) {
  return withServers(databaseUrl, { script: 'bench/bareSocketServer.ts' }, async (app, bare, sockets) => {
    const call = app.call;
    const admin = await app.admin();
    const guests = await app.guests(FOLLOWERS);
    for (let i = 0; i <= NEXTS; i++) await app.approvedStory(guests[0]!, admin, `Story ${i} for the show`);
    await call('POST', '/api/show', admin, { action: 'stop' });
    await call('POST', '/api/show', admin, { action: 'start' });

    await openSockets(
      sockets,
      app.base,
      guests.map((token) => ({ token })),
    );
    const ours = await measure(sockets, 'show:changed', () => call('POST', '/api/show', admin, { action: 'next' }));
    const { current } = (await (await call('GET', '/api/show', admin)).json()) as {
      current: { kind: string; id: number };
    };

    // reactions: every follower taps 3 a second on the current item for 20 s, each from its phone
    const bursts: number[] = [];
    sockets[0]!.on('reactions:burst', (p: { id: number }) => p.id === current.id && bursts.push(performance.now()));
    const phones = guests.map((token) => new Phone(app.base, token));
    const taps = await tapFor(phones, `/api/stories/${current.id}/reactions`, app.process.pid!);
    phones.forEach((phone) => phone.close());
    await sleep(1000);
    const item = (await (await call('GET', `/api/stories/${current.id}`, admin)).json()) as {
      reactions: Record<string, number>;
    };
    const total = Object.values(item.reactions).reduce((a, b) => a + b, 0);
    const inWindow = bursts.filter((t) => t - taps.startedAt <= REACTION_MS);
    let worstSecond = 0;
    for (const t of inWindow)
      worstSecond = Math.max(worstSecond, inWindow.filter((o) => o >= t && o < t + 1000).length);
    closeSockets(sockets);

    await openSockets(
      sockets,
      bare.base,
      guests.map(() => ({})),
    );
    const baseline = await measure(sockets, 'likes:changed', () => fetch(`${bare.base}/emit`, { method: 'POST' }));
    const row = (name: string, r: typeof ours) =>
      `| ${name} | ${r.p50.toFixed(1)} ms | ${r.p99.toFixed(1)} ms | ${r.max.toFixed(1)} ms | ${r.n} | ${r.missing} |`;
    const count = (m: Map<string | number, number>) => [...m.values()].reduce((a, b) => a + b, 0);
    const list = (m: Map<string | number, number>) => [...m].map(([what, n]) => `${what}: ${n}`).join(', ') || 'none';
    const answered = count(taps.statuses);
    return [
      `### The show: ${FOLLOWERS} followers, ${NEXTS} \`next\` taps, from the presenter's request to each follower's \`show:changed\``,
      '',
      '| server | p50 | p99 | max | deliveries | missing |',
      '|---|---:|---:|---:|---:|---:|',
      row('the app: POST /api/show → log → catalog + outbox → tail → sockets', ours),
      row('baseline: bare socket.io broadcast, no database', baseline),
      '',
      `### Reactions: ${FOLLOWERS} followers tapping ${TAPS_PER_SECOND} a second for ${REACTION_MS / 1000} s on one item, one keep-alive connection each`,
      '',
      'A tap due while the phone still waits for its last answer is skipped (busy), not queued.',
      '',
      '| taps due | sent | skipped (busy) | answered/s | answers | failed (why) | tap answer p50 / p99 | server CPU (API + worker, one process) | `reactions:burst` for the item | most in any second | totals kept |',
      '|---:|---:|---:|---:|---|---|---:|---:|---:|---:|---:|',
      `| ${taps.due} | ${taps.sent} | ${taps.skipped} | ${(answered / taps.seconds).toFixed(0)} | ${list(taps.statuses)} | ${list(taps.failures)} | ${taps.latency.p50.toFixed(0)} / ${taps.latency.p99.toFixed(0)} ms | ${taps.cpu.toFixed(0)} % of a core | ${(inWindow.length / (REACTION_MS / 1000)).toFixed(1)}/s | ${worstSecond} | ${total} of ${taps.statuses.get(202) ?? 0} |`,
    ].join('\n');
  });
}
