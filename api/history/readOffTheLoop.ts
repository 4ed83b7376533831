import { Piscina } from 'piscina';
import { logHmacKey } from '#events/canonical.ts';
import type { Request, Response } from 'express';
import type { Deps } from '../deps.ts';
import { HttpError } from '../http/errors.ts';
import { readTooLong } from './boundedRead.ts';
import type { AuditorRead, ReadAnswer, ReadTask } from './readThread.ts';

/**
 * The auditors' read thread (decision 154): a history page is a query, a hash of each of its up to
 * 1,000 links and their JSON, milliseconds of CPU the API's event loop must not spend while guests
 * wait on it. One thread at the lowest priority, as verify's (decision 137): on a busy machine the
 * room's requests get the CPU first and the auditor waits. A few reads at once on it, each waiting on
 * the database most of its time; made at the first read, let go after a minute idle.
 */
let pool: Piscina<ReadTask, ReadAnswer> | undefined;

function reader() {
  return (pool ??= new Piscina({
    filename: new URL('./readThread.ts', import.meta.url).href,
    minThreads: 0,
    maxThreads: 1,
    concurrentTasksPerWorker: 4,
    idleTimeout: 60_000,
    niceIncrement: 19,
  }));
}

/** Reads running or waiting at most: a console left refreshing, or a script, is told to wait. */
export const READ_QUEUE = 16;
let queued = 0;

/** How many reads run or wait now, this process's share of READ_QUEUE. */
export const readsInLine = (): number => queued;

/**
 * An auditor's read of the log on the read thread, sent: the thread made the answer's bytes (gzipped
 * when the client takes it) and its ETag, so the API only writes them. Past READ_QUEUE reads at once,
 * 503 at once; past the statement timeout, or on a connection that broke, 503 as on the API's own
 * connections (decisions 019 and 101). `notFound` is thrown for an item with no events.
 */
export async function sendReadOffTheLoop(
  deps: Deps,
  req: Request,
  res: Response,
  read: AuditorRead,
  notFound?: () => Error,
): Promise<void> {
  if (queued >= READ_QUEUE) {
    throw new HttpError(503, 'Too many reads of the log at once: try again in a moment', {}, { 'Retry-After': '5' });
  }
  queued++;
  let answer: ReadAnswer;
  try {
    answer = await reader().run({
      databaseUrl: deps.databaseUrl,
      timeoutMs: deps.config.auditStatementTimeoutMs,
      hmacKey: logHmacKey(),
      gzip: req.acceptsEncodings('gzip', 'identity') === 'gzip',
      read,
    });
  } finally {
    queued--;
  }
  if ('stopped' in answer) {
    throw answer.stopped === 'timeout'
      ? readTooLong()
      : Object.assign(new Error('Connection terminated (auditor read thread)'), { code: '08006' });
  }
  if (answer.empty && notFound) throw notFound();
  res.vary('Accept-Encoding');
  res.set('ETag', answer.etag);
  // the compression middleware leaves an answer already encoded as it is
  if (answer.gzipped) res.set('Content-Encoding', 'gzip');
  res.type('json').send(Buffer.from(answer.body.buffer, answer.body.byteOffset, answer.body.byteLength));
}
