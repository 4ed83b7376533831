import pg from 'pg';
import type { Anchor, AnchorStore } from '#events/anchors.ts';
import { verifyChain, type VerifyResult } from '#events/chain.ts';
import { systemClock } from '../time.ts';
import { pacer, type RoomClock } from './auditorPace.ts';
import { stoppedBy, type Stopped } from './stopped.ts';
import { lowerBackendPriority } from './backendPriority.ts';

/** What the verify thread is asked (api/history/verifyOffTheLoop.ts): plain data, copied across. */
export interface VerifyTask {
  databaseUrl: string;
  /** each statement's bound, as for every auditor read (decision 101) */
  timeoutMs: number;
  /** every head anchored so far, read by the API (the thread holds no object store) */
  anchors: Anchor[];
  /** LOG_HMAC_KEY as the API has it now (a thread's environment is a copy made when it started) */
  hmacKey: string | undefined;
  /** the app's room clock, shared: when a guest last asked, and the auditor's next step (decision 159) */
  room: RoomClock;
}

/** Links hashed between two rests: about a millisecond's work. */
const SLICE = 50;
/** Links a query reads: a few milliseconds of the backend's time. */
const PAGE = 500;

/** The thread's answer: the result and the head to anchor, or why the read stopped. */
export type VerifyAnswer = { result: VerifyResult; anchor: Anchor | null } | Stopped;

/**
 * Verifies the whole chain on a connection of its own, in one READ ONLY transaction with the auditor's
 * statement timeout; the API writes the anchor it answers (piscina's entry point).
 */
export default async function verify(task: VerifyTask): Promise<VerifyAnswer> {
  // named, so that an operator sees the auditor's verify in pg_stat_activity
  const client = new pg.Client({ connectionString: task.databaseUrl, application_name: 'tribute-verify' });
  // a backend terminated mid-verify fails the next query; it must not end the thread
  client.on('error', () => {});
  let anchor: Anchor | null = null;
  const anchors: AnchorStore = {
    where: 'the API',
    all: async () => task.anchors,
    latest: async () => task.anchors.at(-1),
    write: async (a) => {
      anchor = a;
    },
  };
  try {
    await client.connect();
    // the backend reading the whole chain yields the CPU to the room's as this thread does (decision 154)
    await lowerBackendPriority(client);
    // a thread stopped mid-read (its auditor left) just closes its socket: the backend looks for that
    // every second, in a long statement or a wait on a lock, rather than read on for nobody
    await client.query(
      `BEGIN READ ONLY; SET LOCAL statement_timeout = ${Math.max(1, Math.floor(task.timeoutMs))};
       SET LOCAL client_connection_check_interval = 1000`,
    );
    // While the room is busy the verify keeps to its share of the machine (decision 159): it rests
    // after every slice of links in proportion to the slice's time, the page's query included, and
    // reads short pages so that no one statement holds a core for long. With the room quiet a pause
    // is a turn of this thread's loop, where nothing else runs. The API stamps the anchor it writes
    // with its own clock (verifyOffTheLoop.ts).
    const options = {
      anchors,
      clock: systemClock,
      hmacKey: task.hmacKey,
      yieldEvery: SLICE,
      pause: pacer(task.room),
      pageSize: PAGE,
    };
    const result = await verifyChain(client, options);
    await client.query('COMMIT');
    return { result, anchor };
  } catch (error) {
    return stoppedBy(error);
  } finally {
    await client.end().catch(() => {});
  }
}
