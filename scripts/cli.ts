import { EventStore } from '#events/store.ts';
import { loadConfig } from '#api/config.ts';
import { migrate } from '#api/db/migrate.ts';
import { createPool, openDatabase } from '#api/db/postgres.ts';

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
