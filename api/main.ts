import { parseArgs } from 'node:util';
import { ConfigError, loadConfig } from './config.ts';
import { markDraining } from './observability/health.ts';
import { configureLogger, log } from './observability/logger.ts';
import { SealRefused } from '#events/chain.ts';
import { startServer, type Role } from './server.ts';

const USAGE = `usage: node api/main.ts [--role api|worker|all]

  --role all     (default) web, API and socket.io on PORT, with the projection and job workers
  --role api     web, API and socket.io only; run several behind a proxy
  --role worker  the projection runner and the media jobs only; no HTTP
  --help         this text

Settings come from the environment (README "Configuration"); the program checks them at start and
refuses to run with a message naming each bad one.`;

function fail(message: string): never {
  console.error(message);
  process.exit(2);
}

let role: Role;
try {
  const { values } = parseArgs({
    options: { role: { type: 'string', default: 'all' }, help: { type: 'boolean', short: 'h' } },
  });
  if (values.help) {
    console.log(USAGE);
    process.exit(0);
  }
  if (!['api', 'worker', 'all'].includes(values.role)) fail(`--role must be api, worker or all (got ${values.role})`);
  role = values.role as Role;
} catch (error) {
  fail(`${(error as Error).message}\n\n${USAGE}`);
}

let config: ReturnType<typeof loadConfig>;
try {
  config = loadConfig();
} catch (error) {
  if (error instanceof ConfigError) fail(error.message);
  throw error;
}
configureLogger({ level: config.logLevel, role });

// A promise nobody awaited must not take the whole process (and every visitor's socket) down.
process.on('unhandledRejection', (reason) => log.error({ err: reason }, 'unhandled promise rejection'));

const server = await startServer(config, role).catch((error: unknown) => {
  if (error instanceof SealRefused) fail(`refusing to start: ${error.message}`);
  throw error;
});

if (server.port) log.info({ port: server.port }, `Tribute Gallery (${role}) on http://localhost:${server.port}`);
else log.info('Tribute Gallery worker running');
if (!config.production) {
  const demo = config.usingDemoSecrets;
  console.log('Demo passwords (development only):');
  if (demo.galleryPassword) console.log(`  guest password: ${config.galleryPassword}`);
  if (demo.adminPassword) console.log(`  admin password: ${config.adminPassword}`);
  if (demo.adminKey) console.log(`  admin key:      ${config.adminKey}`);
}

let closing = false;
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => {
    if (closing) process.exit(1);
    closing = true;
    markDraining();
    log.info({ signal, graceMs: config.shutdownGraceMs }, 'shutting down');
    const deadline = setTimeout(() => {
      log.error({ graceMs: config.shutdownGraceMs }, 'shutdown passed its deadline; exiting anyway');
      process.exit(1);
    }, config.shutdownGraceMs);
    deadline.unref();
    server.close().then(
      () => {
        log.info('stopped');
        process.exit(0);
      },
      (error: unknown) => {
        log.error({ err: error }, 'shutdown failed');
        process.exit(1);
      },
    );
  });
}
