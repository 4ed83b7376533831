import { EventStore } from '#events/store.ts';
import { ConfigError, loadConfig } from '#api/config.ts';
import { migrate } from '#db/migrate.ts';
import { createPool, openDatabase } from '#db/postgres.ts';

/**
 * The database the commands work on: the running server's (same DATA_DIR or DATABASE_URL), or an
 * embedded one started for the command and stopped after it.
 */
export async function withStore<T>(work: (store: EventStore) => Promise<T>): Promise<T> {
  const config = loadConfig();
  const database = await openDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir });
  const pool = createPool(database.url, 4);
  try {
    await migrate(pool);
    return await work(new EventStore(pool));
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
 * Runs a command's main: `--help` prints its usage; a bad setting or call prints one clear line and
 * exits 2; any other failure prints its message (the stack only with DEBUG set) and exits 1.
 */
export async function runCommand(usage: string, main: (args: string[]) => Promise<number>): Promise<void> {
  const args = process.argv.slice(2);
  if (args.includes('--help') || args.includes('-h')) {
    console.log(usage);
    return;
  }
  try {
    process.exitCode = await main(args);
  } catch (error) {
    if (error instanceof UsageError) {
      console.error(`${error.message}\n${usage}`);
      process.exitCode = 2;
    } else if (error instanceof ConfigError) {
      console.error(error.message);
      process.exitCode = 2;
    } else {
      console.error(process.env.DEBUG ? error : `error: ${error instanceof Error ? error.message : String(error)}`);
      process.exitCode = 1;
    }
  }
}
