import { setTimeout as sleep } from 'node:timers/promises';
import type { Socket } from 'socket.io-client';
import { broadcastRounds, closeSockets, cpuSeconds, openSockets, spread, withServers } from './support.ts';

const FOLLOWERS = Number(process.env.BENCH_FOLLOWERS ?? 300);
const NEXTS = 20;
const TAPS_PER_SECOND = 3;
const REACTION_MS = 20_000;

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
 * The show (CONTRACT §7): FOLLOWERS guests follow while the admin taps `next` NEXTS times, timed from
 * the presenter's request to each follower's `show:changed`, beside a bare socket.io broadcast; then
 * every follower taps TAPS_PER_SECOND reactions a second for 20 s: the server's CPU and the rate of
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

    // reactions: every follower taps 3 a second on the current item for 20 s
    const bursts: number[] = [];
    sockets[0]!.on('reactions:burst', (p: { id: number }) => p.id === current.id && bursts.push(performance.now()));
    const statuses = new Map<number, number>();
    const cpuBefore = cpuSeconds(app.process.pid!);
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
    const tap = spread(tapLatency);
    const seconds = (performance.now() - startedAt) / 1000;
    const cpu = cpuSeconds(app.process.pid!) - cpuBefore;
    await sleep(1000);
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
    closeSockets(sockets);

    await openSockets(
      sockets,
      bare.base,
      guests.map(() => ({})),
    );
    const baseline = await measure(sockets, 'likes:changed', () => fetch(`${bare.base}/emit`, { method: 'POST' }));
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
      `| ${taps} | ${(taps / seconds).toFixed(0)} | ${[...statuses].map(([s, n]) => `${s || 'failed'}: ${n}`).join(', ')} | ${tap.p50.toFixed(0)} / ${tap.p99.toFixed(0)} ms | ${((cpu / seconds) * 100).toFixed(0)} % of a core | ${(inWindow.length / (REACTION_MS / 1000)).toFixed(1)}/s | ${worstSecond} | ${total} |`,
    ].join('\n');
  });
}
