import type pg from 'pg';
import type { ProjectionLagStatus } from '#contract/live.ts';
import { log } from './logger.ts';
import { projectionLag } from './metrics.ts';

/** How often an API process asks how far the projections are behind. */
const LAG_POLL_MS = 2000;

/**
 * How far the worker's projections are behind the log, as an API process tells its screens
 * (docs/decisions/079): `catchingUp` while more than `limit` events (READY_MAX_LAG) wait. This is
 * news for the screens and the operator, never a reason to stop answering: readiness ignores it.
 */
export class LagWatch {
  readonly #pool: pg.Pool;
  readonly #limit: number;
  readonly #changed: (status: ProjectionLagStatus) => void;
  #timer?: NodeJS.Timeout;
  #status: ProjectionLagStatus = { behind: 0, catchingUp: false };

  constructor(pool: pg.Pool, limit: number, changed: (status: ProjectionLagStatus) => void) {
    this.#pool = pool;
    this.#limit = limit;
    this.#changed = changed;
  }

  get status(): ProjectionLagStatus {
    return this.#status;
  }

  start(pollMs = LAG_POLL_MS): void {
    const poll = async () => {
      try {
        const lag = await projectionLag(this.#pool);
        const behind = lag.reduce((worst, row) => Math.max(worst, row.events), 0);
        const catchingUp = behind > this.#limit;
        const was = this.#status;
        this.#status = { behind, catchingUp };
        if (catchingUp !== was.catchingUp) {
          log.warn({ component: 'lag watch', behind, limit: this.#limit, catchingUp }, 'projections lag changed');
          this.#changed(this.#status);
        }
      } catch (error) {
        // the database is away: readiness says so; the screens keep what they were told last
        log.debug({ component: 'lag watch', reason: (error as Error).message }, 'lag not measured');
      }
      if (this.#timer) this.#timer = setTimeout(() => void poll(), pollMs);
    };
    // poll() never rejects: an unreachable database is caught and logged inside
    this.#timer = setTimeout(() => void poll(), 0);
  }

  stop(): void {
    clearTimeout(this.#timer);
    this.#timer = undefined;
  }
}
