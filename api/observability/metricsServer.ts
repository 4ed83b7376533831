import http from 'node:http';
import express from 'express';
import type { Deps } from '../deps.ts';
import { healthRoutes } from './health.ts';

/**
 * The internal listener on METRICS_PORT (docs/decisions/080): /metrics, /ready and /health-check for
 * Prometheus and the container healthcheck, in every role, the worker's too (it has no other HTTP).
 * The proxy never routes to this port, and compose publishes it on the internal network only.
 */
export async function startMetricsServer(deps: Deps, port: number): Promise<http.Server> {
  const app = express();
  app.disable('x-powered-by');
  app.use(healthRoutes(deps));
  app.use((_req, res) => void res.status(404).json({ message: 'Not found' }));
  const server = http.createServer(app);
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, resolve);
  });
  return server;
}
