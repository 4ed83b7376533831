import { setTimeout as sleep } from 'node:timers/promises';

/**
 * The auditor's share of the machine while guests are in the room (issue 29, decision 159). An
 * auditor's reads run back to back (a script, a console paging through the log), and on two cores each
 * one slows the guests' requests that meet it, whatever its priority. While a guest has asked for
 * something in the last second, auditor work rests between its steps in proportion to each step's
 * time, so that it keeps a core busy for at most SHARE of the time; with the room quiet it runs at
 * full speed.
 */
export const SHARE = 0.25;
/** How long after a guest's last request the room counts as quiet. */
const QUIET_AFTER_MS = 1000;
/** The longest rest after one step: a slow step must not leave the auditor waiting long. */
const MAX_REST_MS = 1000;

/** When a guest last asked for something (epoch ms), in memory the auditor's threads share. */
export type RoomClock = BigInt64Array<SharedArrayBuffer>;

export function newRoomClock(): RoomClock {
  return new BigInt64Array(new SharedArrayBuffer(8));
}

export function roomAsked(clock: RoomClock): void {
  Atomics.store(clock, 0, BigInt(Date.now()));
}

const roomBusy = (clock: RoomClock) => Date.now() - Number(Atomics.load(clock, 0)) < QUIET_AFTER_MS;

/** How long to rest after a step of `spentMs`: the steps take `share` of the time while the room is busy. */
export function restAfter(spentMs: number, clock: RoomClock, share = SHARE): number {
  return roomBusy(clock) ? Math.min(MAX_REST_MS, spentMs * (1 / share - 1)) : 0;
}

/**
 * A function to call between an auditor's steps on its own thread: it rests in proportion to the work
 * done since the last call while the room is busy, and is a turn of the thread's loop otherwise
 * (verify's slices, on the verify thread, with the API's clock).
 */
export function pacer(clock: RoomClock, share = SHARE): () => Promise<void> {
  let resumed = performance.now();
  return async () => {
    const rest = restAfter(performance.now() - resumed, clock, share);
    if (rest > 0) await sleep(rest);
    else await new Promise((resolve) => setImmediate(resolve));
    resumed = performance.now();
  };
}

/** One app's room: its guests' requests, and the auditor's reads that wait for their turn. */
export class AuditorPace {
  readonly clock = newRoomClock();
  readonly share: number;
  #line: Promise<unknown> = Promise.resolve();

  constructor(share = SHARE) {
    this.share = share;
  }

  /** A guest's request: the auditor keeps to its share for a while. */
  roomAsked(): void {
    roomAsked(this.clock);
  }

  /**
   * An auditor's read in its turn: while the room is busy, one at a time, the next after a rest in
   * proportion to how long this one took. The answer is not held back by the rest; the next read is.
   */
  inTurn<T>(read: () => Promise<T>): Promise<T> {
    if (!roomBusy(this.clock)) return read();
    let started = 0;
    const turn = this.#line.then(() => {
      started = performance.now();
      return read();
    });
    // the next waits for this one and its rest, whatever this one's outcome
    this.#line = turn
      .catch(() => {})
      .then(() => {
        const rest = restAfter(performance.now() - started, this.clock, this.share);
        return rest > 0 ? sleep(rest) : undefined;
      });
    return turn;
  }
}
