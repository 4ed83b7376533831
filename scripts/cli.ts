import { inspect } from 'node:util';
import type { Writable } from 'node:stream';
import { logHmacKey } from '#events/canonical.ts';
import { EventStore } from '#events/store.ts';
import { ConfigError, loadConfig } from '#api/config.ts';
import { migrate } from '#db/migrate.ts';
import { createPool, openDatabase } from '#db/postgres.ts';

/**
 * The database the commands work on: the running server's (same DATA_DIR or DATABASE_URL), or an
 * embedded one started for the command and stopped after it.
 */
export async function withStore<T>(
  work: (store: EventStore) => Promise<T>,
  env: NodeJS.ProcessEnv = process.env,
): Promise<T> {
  const config = loadConfig(env);
  const database = await openDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir });
  const pool = createPool(database.url, 4);
  try {
    await migrate(pool);
    // the key the command was given, not the process's (a test runs commands in-process, decision 135)
    return await work(new EventStore(pool, { hmacKey: () => logHmacKey(env) }));
  } finally {
    await pool.end();
    await database.stop();
  }
}

export function argValue(args: string[], name: string): string | undefined {
  const i = args.indexOf(name);
  return i >= 0 ? args[i + 1] : undefined;
}

/** A mistake in how a command was called: its usage is printed, exit 2. */
export class UsageError extends Error {}

/**
 * Where a command reads its settings and writes what it says: the process's own (processIo), or, for
 * a test that checks what the command does rather than its command line, settings passed in and
 * output kept (a CLI run costs a new Node, about 0.8 s of CPU; docs/test-times.md).
 */
export interface CommandIo {
  env: NodeJS.ProcessEnv;
  /** one line of what the command reports (console.log) */
  out(line: string): void;
  /** one line of a warning or failure (console.error) */
  err(line: string): void;
  /** where data goes (an export) */
  stdout: Writable;
}

export const processIo: CommandIo = {
  env: process.env,
  out: (line) => console.log(line),
  err: (line) => console.error(line),
  stdout: process.stdout,
};

export type CommandMain = (args: string[], io: CommandIo) => Promise<number>;

/**
 * A command's main run on `args`, with its exit status: `--help` prints its usage (0); a bad setting
 * or call prints one clear line (2); any other failure prints its message, the stack only with DEBUG
 * set (1).
 */
export async function commandStatus(usage: string, main: CommandMain, args: string[], io: CommandIo): Promise<number> {
  if (args.includes('--help') || args.includes('-h')) {
    io.out(usage);
    return 0;
  }
  try {
    return await main(args, io);
  } catch (error) {
    if (error instanceof UsageError) {
      io.err(`${error.message}\n${usage}`);
      return 2;
    }
    if (error instanceof ConfigError) {
      io.err(error.message);
      return 2;
    }
    io.err(io.env.DEBUG ? inspect(error) : `error: ${error instanceof Error ? error.message : String(error)}`);
    return 1;
  }
}

/** Runs a command's main on the process's arguments and sets its exit code (commandStatus). */
export async function runCommand(usage: string, main: CommandMain): Promise<void> {
  process.exitCode = await commandStatus(usage, main, process.argv.slice(2), processIo);
}
