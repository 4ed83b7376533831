import { Counter, Gauge } from 'prom-client';
import { metricsRegistry } from '../observability/metrics.ts';

/** Live delivery as Prometheus sees it: what this process sent, to how many sockets, and its welcomes. */
export const liveMessagesSent = new Counter({
  name: 'live_messages_sent_total',
  help: 'Live messages this process sent from the outbox, by socket event (once per message, whatever the audience)',
  labelNames: ['event'] as const,
  registers: [metricsRegistry],
});

export const liveDeliveries = new Counter({
  name: 'live_socket_deliveries_total',
  help: 'Live messages handed to a socket of this process (a message to 30 sockets counts 30)',
  registers: [metricsRegistry],
});

export const liveWelcomes = new Counter({
  name: 'live_welcomes_total',
  help: 'Sockets welcomed: first (no since), caught_up (sent what was missed), refetch (told to refetch), failed',
  labelNames: ['result'] as const,
  registers: [metricsRegistry],
});

interface LiveSource {
  sockets(): number;
  position(): number;
}
const sources = new Set<LiveSource>();

/** Reports a live server's sockets and position when Prometheus scrapes; returns the way to stop. */
export function measureLive(source: LiveSource): () => void {
  sources.add(source);
  return () => sources.delete(source);
}

new Gauge({
  name: 'live_sockets',
  help: 'Sockets connected to this process',
  registers: [metricsRegistry],
  collect() {
    this.set([...sources].reduce((sum, s) => sum + s.sockets(), 0));
  },
});
new Gauge({
  name: 'live_position',
  help: 'The log seq up to which this process has sent every live message',
  registers: [metricsRegistry],
  collect() {
    this.set(Math.max(0, ...[...sources].map((s) => s.position())));
  },
});
