import { PgBoss } from 'pg-boss';
import type pg from 'pg';
import { log } from '../observability/logger.ts';
import { currentRequestId } from '../observability/requestContext.ts';

/** Every job the system runs, with its payload. One handler each: handle<Job>. */
export interface JobPayloads {
  'make-artwork-renditions': { artworkId: number };
  'process-media': { mediaId: number };
  'sweep-uploads': Record<string, never>;
  'make-montage': { runId: string };
}
export type JobName = keyof JobPayloads;
export type JobHandlers = { [K in JobName]: (data: JobPayloads[K]) => Promise<void> };

const JOB_NAMES: readonly JobName[] = ['make-artwork-renditions', 'process-media', 'sweep-uploads', 'make-montage'];
/**
 * How long a job may run before pg-boss counts it as failed and retries it: longer than its longest
 * run (process-media: a 20-minute transcode, its poster and probe, and the copies to and from storage),
 * or a slow job would run again beside itself.
 */
export const JOB_EXPIRY_SECONDS: Record<JobName, number> = {
  'make-artwork-renditions': 15 * 60,
  'process-media': 60 * 60,
  'sweep-uploads': 15 * 60,
  // every approved video is encoded again: minutes for 20 one-minute clips (BENCHMARKS.md)
  'make-montage': 3 * 60 * 60,
};
/**
 * Where a media job goes after its last try (docs/decisions/082): kept, with its data, for the
 * operator (docs/runbook.md), instead of vanishing as a failed row. No worker takes from it.
 */
export const MEDIA_DEAD_LETTER = 'media-dead-letter';
const MEDIA_JOBS: readonly JobName[] = ['make-artwork-renditions', 'process-media', 'make-montage'];
/**
 * Retries: 3 after the first try, waiting 2 s, then about 4 and 8 (pg-boss's exponential backoff,
 * with jitter, at most 5 minutes), so a passing fault (the object store restarting) is outlasted
 * rather than hammered.
 */
export const RETRY = { retryLimit: 3, retryDelay: 2, retryBackoff: true, retryDelayMax: 300 } as const;
/**
 * How often a worker looks for due jobs that no NOTIFY announces: a retry whose backoff has passed.
 * With NOTIFY on, pg-boss otherwise looks every 30 s, so each retry waited about 30 s rather than its
 * 2, 4 or 8 s (docs/decisions/119). Every RETRY.retryDelay seconds, a cheap indexed fetch per queue.
 */
export const DUE_JOB_POLL_SECONDS = RETRY.retryDelay;
/** A running job's worker refreshes its claim every half of this; pg-boss's minimum is 10. */
const HEARTBEAT_SECONDS = 10;
/** Jobs that run on a clock, in cron syntax. */
const SCHEDULES: Partial<Record<JobName, string>> = { 'sweep-uploads': '17 * * * *' };

/** The one place pg-boss is used. Sends work from any role; works only where handlers are given. */
export class JobQueue {
  readonly #boss: PgBoss;

  private constructor(boss: PgBoss) {
    this.#boss = boss;
  }

  static async start(databaseUrl: string, handlers?: JobHandlers): Promise<JobQueue> {
    // supervised every 5 s: a job whose worker died (no heartbeat for HEARTBEAT_SECONDS) is retried
    // within about 15 s rather than after its expiry (docs/decisions/019)
    const boss = new PgBoss({
      connectionString: databaseUrl,
      useListenNotify: true,
      max: 4,
      superviseIntervalSeconds: 5,
      monitorIntervalSeconds: 5,
    });
    const queueLog = log.child({ component: 'job queue' });
    boss.on('error', (error) => queueLog.error({ err: error }, 'job queue error'));
    await boss.start();
    await boss.createQueue(MEDIA_DEAD_LETTER, { retryLimit: 0 });
    for (const name of JOB_NAMES) {
      const options = {
        ...RETRY,
        expireInSeconds: JOB_EXPIRY_SECONDS[name],
        heartbeatSeconds: HEARTBEAT_SECONDS,
        ...(MEDIA_JOBS.includes(name) ? { deadLetter: MEDIA_DEAD_LETTER } : {}),
      };
      await boss.createQueue(name, { notify: true, ...options });
      await boss.updateQueue(name, options); // queues made by an earlier version get the new expiry
    }
    if (handlers) {
      for (const name of JOB_NAMES) {
        const handler = handlers[name] as (data: unknown) => Promise<void>;
        if (typeof handler !== 'function') throw new Error(`no handler for job ${name}; refusing to start`);
        // A NOTIFY wakes one fetch of one job, and pg-boss then waits out its 30 s backstop poll: jobs
        // sent while this one ran would wait that long. After each job, look again at once instead.
        let workerId = '';
        const polling = { pollingIntervalSeconds: 1, notifyPollingIntervalSeconds: DUE_JOB_POLL_SECONDS };
        workerId = await boss.work<unknown>(name, polling, async (jobs) => {
          try {
            for (const job of jobs) await handler(job.data);
          } finally {
            boss.notifyWorker(workerId);
          }
        });
      }
      for (const [name, cron] of Object.entries(SCHEDULES)) await boss.schedule(name, cron, {});
    }
    return new JobQueue(boss);
  }

  /** Enqueues a job; pass the transaction's client so the job exists exactly when the write commits. */
  async send<K extends JobName>(name: K, data: JobPayloads[K], tx?: pg.PoolClient): Promise<void> {
    const db = tx && { executeSql: (text: string, values?: unknown[]) => tx.query(text, values) };
    // the request that caused the job, for the job's log lines
    const requestId = currentRequestId();
    await this.#boss.send(name, requestId ? { ...data, requestId } : data, db ? { db } : {});
  }

  async stop() {
    await this.#boss.stop({ graceful: true, timeout: 5000 });
  }
}
