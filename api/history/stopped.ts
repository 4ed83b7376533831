import { STATEMENT_TIMEOUT } from '#db/postgres.ts';
import { isUnreachable } from '../http/errors.ts';

// What an auditor's thread answers when its read stopped (readThread.ts, verifyThread.ts). The threads
// import this, not auditorThread.ts, whose pool and its log are the API's alone.

/**
 * Why a read on an auditor's thread stopped: the statement timeout, or a connection that failed or
 * broke. Plain data, since an error crossing threads loses its code.
 */
export type Stopped = { stopped: 'timeout' | 'unreachable' };

/** A thread's entry point's catch: a stop it can name, as data; anything else thrown on. */
export function stoppedBy(error: unknown): Stopped {
  if ((error as { code?: string }).code === STATEMENT_TIMEOUT) return { stopped: 'timeout' };
  if (isUnreachable(error)) return { stopped: 'unreachable' };
  throw error;
}
