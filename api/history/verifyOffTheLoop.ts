import { Piscina } from 'piscina';
import type { AnchorStore } from '#events/anchors.ts';
import { logHmacKey } from '#events/canonical.ts';
import type { VerifyResult } from '#events/chain.ts';
import { HttpError } from '../http/errors.ts';
import type { Clock } from '../time.ts';
import { readTooLong } from './boundedRead.ts';
import type { VerifyAnswer, VerifyTask } from './verifyThread.ts';

/**
 * The verify thread (decision 137): hashing the whole chain is CPU the API's event loop must not spend
 * while guests wait on it. One thread, made at the first verify and let go after a minute idle, at the
 * lowest priority: on a busy machine the room's requests get the CPU first and the auditor waits.
 */
let pool: Piscina<VerifyTask, VerifyAnswer> | undefined;

function verifier() {
  return (pool ??= new Piscina({
    filename: new URL('./verifyThread.ts', import.meta.url).href,
    minThreads: 0,
    maxThreads: 1,
    idleTimeout: 60_000,
    niceIncrement: 19,
  }));
}

/** Verifies running or waiting at most: each one waiting would still open a connection and hash the chain. */
export const VERIFY_QUEUE = 4;
let queued = 0;

/** How many verifies run or wait now, this process's share of VERIFY_QUEUE. */
export const verifiesInLine = (): number => queued;

/**
 * `verifyChain` of the whole log on the verify thread; the verified head is anchored here, stamped
 * with `clock` (a function cannot cross to the thread; decision 147). Past
 * VERIFY_QUEUE verifies at once (an auditor's console left refreshing, a script), 503 at once.
 * `signal` (the auditor's request closed) takes the verify back: out of the queue if it waits, and
 * the thread stopped if it runs (a new one is made for the next), its place freed at once; the
 * promise then rejects with piscina's AbortError.
 */
export async function verifyOffTheLoop(
  databaseUrl: string,
  timeoutMs: number,
  anchors: AnchorStore,
  clock: Clock,
  signal?: AbortSignal,
): Promise<VerifyResult> {
  if (queued >= VERIFY_QUEUE) {
    throw new HttpError(503, 'The log is being verified already: try again in a moment', {}, { 'Retry-After': '5' });
  }
  queued++;
  let answer: VerifyAnswer;
  try {
    const task = { databaseUrl, timeoutMs, anchors: await anchors.all(), hmacKey: logHmacKey() };
    answer = await verifier().run(task, { signal });
  } finally {
    queued--;
  }
  if ('stopped' in answer) {
    // the same answers as a read on the API's own connections: 503 either way (decisions 019 and 101)
    throw answer.stopped === 'timeout'
      ? readTooLong()
      : Object.assign(new Error('Connection terminated (verify thread)'), { code: '08006' });
  }
  if (!answer.anchor) return answer.result;
  const anchor = { ...answer.anchor, at: clock().toISOString() };
  await anchors.write(anchor);
  return answer.result.ok ? { ...answer.result, anchor } : answer.result;
}
