import type { AnchorStore } from '#events/anchors.ts';
import { logHmacKey } from '#events/canonical.ts';
import type { VerifyResult } from '#events/chain.ts';
import type { Clock } from '../time.ts';
import type { RoomClock } from './auditorPace.ts';
import { auditorThread } from './auditorThread.ts';
import type { VerifyAnswer, VerifyTask } from './verifyThread.ts';

/** Verifies running or waiting at most: each one waiting would still open a connection and hash the chain. */
export const VERIFY_QUEUE = 4;

/** The verify thread (decision 137): hashing the whole chain, one verify at a time. */
const verifier = auditorThread<VerifyTask, VerifyAnswer>({
  filename: new URL('./verifyThread.ts', import.meta.url),
  name: 'verify thread',
  queue: VERIFY_QUEUE,
  busy: 'The log is being verified already: try again in a moment',
});

/** How many verifies run or wait now, this process's share of VERIFY_QUEUE. */
export const verifiesInLine = (): number => verifier.inLine();

/**
 * `verifyChain` of the whole log on the verify thread; the verified head is anchored here, stamped
 * with `clock` (a function cannot cross to the thread; decision 147). `room`: when a guest last asked,
 * shared with the thread, which rests while the room is busy (decision 159). `signal` (the auditor's
 * request closed) takes the verify back, as `AuditorThread.run` says.
 */
export async function verifyOffTheLoop(
  databaseUrl: string,
  timeoutMs: number,
  anchors: AnchorStore,
  clock: Clock,
  room: RoomClock,
  signal?: AbortSignal,
): Promise<VerifyResult> {
  const answer = await verifier.run(
    async () => ({ databaseUrl, timeoutMs, anchors: await anchors.all(), hmacKey: logHmacKey(), room }),
    { signal },
  );
  if (!answer.anchor) return answer.result;
  const anchor = { ...answer.anchor, at: clock().toISOString() };
  await anchors.write(anchor);
  return answer.result.ok ? { ...answer.result, anchor } : answer.result;
}
