import type pg from 'pg';
import { boundedRead, STATEMENT_TIMEOUT } from '#db/postgres.ts';
import type { Deps } from '../deps.ts';
import { HttpError } from '../http/errors.ts';

/**
 * An auditor's or admin's read of the log, bounded by `AUDIT_STATEMENT_TIMEOUT_MS` a statement
 * (decision 101): past it, 503 with a message that says so, and the room's connections are free again.
 */
export async function auditRead<T>(deps: Deps, work: (db: pg.PoolClient) => Promise<T>): Promise<T> {
  try {
    return await boundedRead(deps.pool, deps.config.auditStatementTimeoutMs, work);
  } catch (error) {
    if ((error as { code?: string }).code === STATEMENT_TIMEOUT) throw readTooLong();
    throw error;
  }
}

/** The answer to a read of the log stopped by the statement timeout: 503, never a 500. */
export function readTooLong() {
  return new HttpError(
    503,
    'This read of the log took too long and was stopped: narrow it (a filter, fewer events) and try again',
    {},
    { 'Retry-After': '5' },
  );
}
