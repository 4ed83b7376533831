import { Piscina } from 'piscina';
import { HttpError } from '../http/errors.ts';
import { log } from '../observability/logger.ts';
import { readTooLong } from './boundedRead.ts';
import type { Stopped } from './stopped.ts';

export interface AuditorThread<Task, Answer> {
  /**
   * The task `makeTask` gives, run on the thread. Past the queue's length, 503 at once (an auditor's
   * console left refreshing, a script). A stopped read answers as one on the API's own connections:
   * 503 either way (decisions 019 and 101). `signal` takes the task back: out of the queue if it
   * waits, and the thread stopped if it runs (a new one is made for the next); the promise then
   * rejects with piscina's AbortError. `turn` runs the task when its turn comes (an auditor's read
   * waits for it while guests are in the room, decision 159), counted in the queue as it waits.
   */
  run(
    makeTask: () => Task | Promise<Task>,
    options?: { signal?: AbortSignal; turn?: <T>(work: () => Promise<T>) => Promise<T> },
  ): Promise<Answer>;
  /** Tasks running or waiting now, this process's share of the queue. */
  inLine(): number;
}

/**
 * One thread for one kind of auditor's work (decisions 137 and 154): CPU the API's event loop must not
 * spend while guests wait on it. Made at its first task and let go after a minute idle, at the lowest
 * priority: on a busy machine the room's requests get the CPU first and the auditor waits.
 */
export function auditorThread<Task, Answer extends object>(options: {
  /** the thread's module, whose default export answers a task */
  filename: URL;
  /** what the thread is, in the error a broken connection gives */
  name: string;
  /** tasks running or waiting at most */
  queue: number;
  /** the 503's message past the queue */
  busy: string;
  /** tasks the thread runs at once, each waiting on the database most of its time */
  atOnce?: number;
}): AuditorThread<Task, Exclude<Answer, Stopped>> {
  let pool: Piscina<Task, Answer | Stopped> | undefined;
  let queued = 0;
  const thread = () => {
    if (pool) return pool;
    pool = new Piscina({
      filename: options.filename.href,
      minThreads: 0,
      maxThreads: 1,
      concurrentTasksPerWorker: options.atOnce ?? 1,
      idleTimeout: 60_000,
      niceIncrement: 19,
    });
    // a thread that fails with no task on it: piscina makes another; unheard, it would end the process
    pool.on('error', (error) => log.error({ err: error, thread: options.name }, 'auditor thread failed'));
    return pool;
  };

  return {
    inLine: () => queued,
    async run(makeTask, { signal, turn = <T>(work: () => Promise<T>) => work() } = {}) {
      if (queued >= options.queue) throw new HttpError(503, options.busy, {}, { 'Retry-After': '5' });
      queued++;
      let answer: Answer | Stopped;
      try {
        answer = await turn(async () => thread().run(await makeTask(), { signal }));
      } finally {
        queued--;
      }
      if ('stopped' in answer) {
        throw answer.stopped === 'timeout'
          ? readTooLong()
          : Object.assign(new Error(`Connection terminated (${options.name})`), { code: '08006' });
      }
      return answer as Exclude<Answer, Stopped>;
    },
  };
}
