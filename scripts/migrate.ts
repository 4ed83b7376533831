import { loadConfig } from '#api/config.ts';
import { migrate } from '#db/migrate.ts';
import { createPool, openDatabase } from '#db/postgres.ts';
import { runCommand, UsageError } from './cli.ts';

const usage = `usage: npm run migrate

  Applies the numbered SQL files in migrations/ that the database (DATABASE_URL, or the embedded one
  under DATA_DIR) has not seen yet, each once, in order, under a lock; prints what it applied.
  The server applies them at start as well; run this first when deploying several processes.`;

await runCommand(usage, async (args) => {
  if (args.length) throw new UsageError(`unexpected argument: ${args[0]}`);
  const config = loadConfig();
  const database = await openDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir });
  const pool = createPool(database.url, 2);
  try {
    const applied = await migrate(pool);
    console.log(applied.length ? `applied ${applied.join(', ')}` : 'the database is up to date');
    return 0;
  } finally {
    await pool.end();
    await database.stop();
  }
});
