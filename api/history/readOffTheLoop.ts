import { once } from 'node:events';
import type { Request, Response } from 'express';
import { logHmacKey } from '#events/canonical.ts';
import type { Deps } from '../deps.ts';
import { auditorThread } from './auditorThread.ts';
import type { AuditorRead, ReadAnswer, ReadTask } from './readThread.ts';

/** Reads running or waiting at most: a console left refreshing, or a script, is told to wait. */
export const READ_QUEUE = 16;

/**
 * The auditors' read thread (decision 154): a history page is a query, a hash of each of its up to
 * 1,000 links and their JSON, milliseconds of CPU the API's event loop must not spend while guests
 * wait on it. A few reads at once on it, each waiting on the database most of its time.
 */
const reader = auditorThread<ReadTask, ReadAnswer>({
  filename: new URL('./readThread.ts', import.meta.url),
  name: 'auditor read thread',
  queue: READ_QUEUE,
  busy: 'Too many reads of the log at once: try again in a moment',
  atOnce: 4,
});

/** How many reads run or wait now, this process's share of READ_QUEUE. */
export const readsInLine = (): number => reader.inLine();

/**
 * An auditor's read of the log on the read thread, sent: the thread made the answer's bytes (gzipped
 * when the client takes it) and its ETag, so the API only writes them. `notFound` is thrown for an
 * item with no events.
 */
export async function sendReadOffTheLoop(
  deps: Deps,
  req: Request,
  res: Response,
  read: AuditorRead,
  notFound?: () => Error,
): Promise<void> {
  const asked = performance.now();
  const sent = once(res, 'close').catch(() => {});
  const answer = await reader.run(
    () => ({
      databaseUrl: deps.databaseUrl,
      timeoutMs: deps.config.auditStatementTimeoutMs,
      hmacKey: logHmacKey(),
      gzip: req.acceptsEncodings('gzip', 'identity') === 'gzip',
      read,
    }),
    // in its turn: while guests are in the room, the auditor's reads keep to their share (decision 159),
    // each costing its whole time in the API, from its arrival to its answer's last byte
    { turn: (work) => deps.auditorPace.inTurn(work, { before: asked - req.arrivedAt, until: sent }) },
  );
  if (answer.empty && notFound) throw notFound();
  res.vary('Accept-Encoding');
  res.set('ETag', answer.etag);
  // the compression middleware leaves an answer already encoded as it is
  if (answer.gzipped) res.set('Content-Encoding', 'gzip');
  res.type('json').send(Buffer.from(answer.body.buffer, answer.body.byteOffset, answer.body.byteLength));
}
