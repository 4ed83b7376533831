import type { Socket } from 'socket.io-client';
import { broadcastRounds, closeSockets, openSockets, spread, withServers } from './support.ts';

const CLIENTS = Number(process.env.BENCH_CLIENTS ?? 1000);
const ROUNDS = 20;

/**
 * Fires `trigger` ROUNDS times; for each, the delay from its HTTP response to each client's
 * likes:changed, and the delay until the last client had it.
 */
async function measure(sockets: Socket[], trigger: () => Promise<void>) {
  const deliveries: number[] = [];
  const fromRequest: number[] = [];
  const lastOfRound: number[] = [];
  const rounds = await broadcastRounds(sockets, 'likes:changed', trigger, {
    rounds: ROUNDS,
    timeoutMs: 10_000,
    pauseMs: 100,
  });
  for (const { received, sentAt, answeredAt } of rounds) {
    for (const t of received) {
      deliveries.push(t - answeredAt);
      fromRequest.push(t - sentAt);
    }
    lastOfRound.push(Math.max(...received) - answeredAt);
  }
  const request = spread(fromRequest);
  const delivery = spread(deliveries);
  return {
    requestP50: request.p50,
    requestP99: request.p99,
    p50: delivery.p50,
    p99: delivery.p99,
    max: delivery.max,
    last: spread(lastOfRound).p50,
    delivered: delivery.n,
  };
}

export function benchFanout(databaseUrl: string) {
  return withServers(databaseUrl, { script: 'bench/bareSocketServer.ts' }, async (app, bare, sockets) => {
    const guest = await app.login();
    const admin = await app.admin();
    const id = await app.approvedStory(guest, admin, 'Fan-out');

    await openSockets(
      sockets,
      app.base,
      Array.from({ length: CLIENTS }, () => ({ token: guest })),
    );
    const ours = await measure(sockets, async () => {
      await (await app.call('POST', `/api/stories/${id}/like`, guest)).arrayBuffer();
    });
    closeSockets(sockets);

    await openSockets(
      sockets,
      bare.base,
      Array.from({ length: CLIENTS }, () => ({})),
    );
    const baseline = await measure(sockets, async () => {
      await (await fetch(`${bare.base}/emit`, { method: 'POST' })).arrayBuffer();
    });
    const row = (name: string, r: typeof ours) =>
      `| ${name} | ${r.p50.toFixed(1)} ms | ${r.p99.toFixed(1)} ms | ${r.max.toFixed(1)} ms | ${r.last.toFixed(1)} ms | ${r.requestP50.toFixed(1)} / ${r.requestP99.toFixed(1)} ms | ${r.delivered} |`;
    return [
      `### Live fan-out: ${CLIENTS} socket.io clients, ${ROUNDS} likes, from the like's HTTP response to each client's \`likes:changed\``,
      '',
      'Negative values: the event reached the client before the HTTP response did (clients and caller share one process,',
      'so the response waits behind socket frames). The column "from request" measures from sending the like instead.',
      '',
      '| server | p50 | p99 | max | last client (median of rounds) | from request p50 / p99 | deliveries |',
      '|---|---:|---:|---:|---:|---:|---:|',
      row('the app: like → log → projection + outbox → tail → sockets', ours),
      row('baseline: bare socket.io broadcast, no database', baseline),
    ].join('\n');
  });
}
