import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { TestProject } from 'vitest/node';
import { startEmbedded } from '#db/postgres.ts';

/** One real PostgreSQL for the run: DATABASE_URL when given, else an embedded one in a temp dir. */
export default async function setup(project: TestProject) {
  if (process.env.DATABASE_URL) {
    project.provide('postgresUrl', process.env.DATABASE_URL);
    return;
  }
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tribute-pg-'));
  fs.chmodSync(dir, 0o777);
  const db = await startEmbedded(path.join(dir, 'data'));
  project.provide('postgresUrl', db.url);
  return async () => {
    await db.stop();
    fs.rmSync(dir, { recursive: true, force: true });
  };
}

declare module 'vitest' {
  export interface ProvidedContext {
    postgresUrl: string;
  }
}
