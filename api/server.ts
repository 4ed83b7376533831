import http from 'node:http';
import type net from 'node:net';
import { EventStore } from '#events/store.ts';
import { projections } from '#projections/index.ts';
import { ProjectionRunner } from '#projections/runner.ts';
import { SnapshotKeeper } from '#projections/timeTravel/snapshotKeeper.ts';
import { SessionStore } from './auth/sessions.ts';
import type { Config } from './config.ts';
import { migrate } from '#db/migrate.ts';
import { logHmacKey } from '#events/canonical.ts';
import { checkChainKey } from '#events/chain.ts';
import { createPool, openDatabase } from '#db/postgres.ts';
import type { Deps } from './deps.ts';
import { AuditorPace } from './history/auditorPace.ts';
import { createApp } from './app.ts';
import { jobHandlers } from './jobs/handlers.ts';
import { JobQueue } from './jobs/jobQueue.ts';
import { LagWatch } from './observability/lagWatch.ts';
import { startMetricsServer } from './observability/metricsServer.ts';
import { log } from './observability/logger.ts';
import { instrumentJobs, measureLagFrom } from './observability/metrics.ts';
import { PersonalData } from './personalData.ts';
import { Realtime } from './realtime/realtime.ts';
import { ReactionCounter } from './show/reactions.ts';
import { createBlobStore } from './storage/index.ts';
import { systemClock, type Clock } from './time.ts';
import { anchorStoreFor } from '#events/anchors.ts';
import { ChainAnchorer } from '#events/chain.ts';

/** How long an idle keep-alive connection stays open: longer than the proxy in front keeps one (60 s, deploy/Caddyfile). */
export const KEEP_ALIVE_MS = 75_000;

export type Role = 'api' | 'worker' | 'all';

export interface RunningServer {
  deps: Deps;
  httpServer?: http.Server;
  port?: number;
  /** the internal /metrics port, when METRICS_PORT is set */
  metricsPort?: number;
  runner?: ProjectionRunner;
  close(): Promise<void>;
}

/**
 * Builds the whole program for a role: the API (HTTP and sockets), the workers, or both. `clock` is
 * where every part of it reads the time it records or shows (decision 147; tests give a fixed one).
 */
export async function startServer(
  config: Config,
  role: Role = 'all',
  clock: Clock = systemClock,
): Promise<RunningServer> {
  const postgresLog = log.child({ component: 'postgres' });
  const database = await openDatabase({
    databaseUrl: config.databaseUrl,
    dataDir: config.dataDir,
    log: (message) => postgresLog.error(message),
  });
  const pool = createPool(database.url);
  const unmeasureLag = measureLagFrom(pool);
  await migrate(pool);
  // a process with a missing or wrong LOG_HMAC_KEY neither appends nor seals (decision 077)
  await checkChainKey(pool, logHmacKey()).catch(async (error: unknown) => {
    await pool.end();
    await database.stop();
    throw error;
  });
  const store = new EventStore(pool, { announce: true });
  const blobs = await createBlobStore({ blobDir: config.blobDir, minio: config.minio });
  const sessions = new SessionStore(pool);
  const personal = new PersonalData(pool);
  const working = role !== 'api';
  const serving = role !== 'worker';
  if (serving) await sessions.startCache();

  // the queue needs its handlers at start, and the handlers need deps: fill the late field after
  // reaction taps are counted in this process and flushed while any are owed (docs/decisions/035)
  const reactions = new ReactionCounter(store);
  const deps = {
    config,
    clock,
    pool,
    databaseUrl: database.url,
    store,
    sessions,
    personal,
    blobs,
    reactions,
    auditorPace: new AuditorPace(),
  } as Deps;
  deps.jobs = await JobQueue.start(database.url, working ? instrumentJobs(jobHandlers(deps)) : undefined);

  let httpServer: http.Server | undefined;
  // Every open connection: at the close, one that has not sent a byte yet (a browser's preconnect, a
  // pool's spare) is closed with the idle ones. Node's closeIdleConnections leaves it open until the
  // headers timeout (76 s), so a close waited that long for a request that may never come.
  const connections = new Set<net.Socket>();
  if (serving) {
    httpServer = http.createServer(createApp(deps));
    // A proxy or a client keeps an idle connection to use again; the server must not close it
    // first, or a request sent just as it does meets a reset (Node's default of 5 s is under what
    // Caddy and browsers keep). Closing the server still closes idle connections at once.
    httpServer.keepAliveTimeout = KEEP_ALIVE_MS;
    httpServer.headersTimeout = KEEP_ALIVE_MS + 1000;
    httpServer.on('connection', (socket: net.Socket) => {
      connections.add(socket);
      socket.once('close', () => connections.delete(socket));
    });
  }
  const realtime = new Realtime(pool, sessions, httpServer);
  deps.realtime = realtime;
  await realtime.start();
  // screens learn when the worker is behind; the process keeps answering (docs/decisions/079)
  const lagWatch = serving ? new LagWatch(pool, config.readyMaxLag, (status) => realtime.tellLag(status)) : undefined;
  if (lagWatch) {
    realtime.lagStatus = () => lagWatch.status;
    lagWatch.start();
  }

  let runner: ProjectionRunner | undefined;
  let anchorer: ChainAnchorer | undefined;
  let keeper: SnapshotKeeper | undefined;
  if (working) {
    runner = new ProjectionRunner(store, projections, log.child({ component: 'projection runner' }), clock);
    // a catalog batch committed here is known here at once, before the outbox tail reads it (decision 028)
    runner.onCommitted((name, events) => name === 'catalog' && realtime.known.advance(events.at(-1)?.seq ?? 0));
    await runner.start();
    // the verified head of the hash chain, anchored outside the database every minute (decision 030)
    anchorer = new ChainAnchorer(
      pool,
      anchorStoreFor(config, blobs),
      log.child({ component: 'chain anchorer' }),
      clock,
    );
    anchorer.start();
    // time travel's checkpoints, kept in the database as the log grows (decision 100)
    keeper = new SnapshotKeeper(pool.options.connectionString!, log.child({ component: 'time-travel checkpoints' }));
    keeper.start();
  }

  let port: number | undefined;
  if (httpServer) {
    await new Promise<void>((resolve) => httpServer!.listen(config.port, resolve));
    port = (httpServer.address() as { port: number }).port;
  }

  const metricsServer =
    config.metricsPort === undefined ? undefined : await startMetricsServer(deps, config.metricsPort);

  return {
    deps,
    httpServer,
    port,
    metricsPort: (metricsServer?.address() as { port: number } | undefined)?.port,
    runner,
    async close() {
      // socket.io's close closes the HTTP server too, waiting for every connection: from here on a
      // kept-alive connection is closed as soon as its request is answered
      const idle =
        httpServer &&
        setInterval(() => {
          httpServer.closeIdleConnections();
          for (const socket of connections) if (socket.bytesRead === 0) socket.destroy();
        }, 100);
      lagWatch?.stop();
      unmeasureLag();
      await runner?.stop();
      await anchorer?.stop();
      await keeper?.stop();
      await realtime.close();
      if (httpServer?.listening) await new Promise((r) => httpServer.close(r));
      clearInterval(idle);
      await reactions.stop();
      if (metricsServer) {
        metricsServer.closeAllConnections();
        await new Promise((r) => metricsServer.close(r));
      }
      await deps.jobs.stop();
      await sessions.close();
      await pool.end();
      await database.stop();
    },
  };
}
