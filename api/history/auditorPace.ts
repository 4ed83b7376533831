import { setTimeout as sleep } from 'node:timers/promises';

/**
 * The auditor's share of the machine while guests are in the room (issue 29, decision 159). An
 * auditor's reads run back to back (a script, a console paging through the log), and on two cores each
 * one slows the guests' requests that meet it, whatever its priority. While a guest has asked for
 * something in the last second, auditor work rests between its steps in proportion to each step's
 * cost, so that it keeps the machine busy for at most a share of the time; with the room quiet it
 * runs at full speed.
 */
/** Verify's share: all of its work is on its own thread and backend, at the lowest priority. */
export const VERIFY_SHARE = 0.25;
/**
 * A history read's share: part of each read (its request, its session, its answer's bytes) is on the
 * API's event loop, where a guest's request waits behind it, so a read costs the room more for its
 * time than verify does (at a quarter, a guest's p95 went to 120–127 % of its quiet value).
 */
export const READ_SHARE = 0.1;
/** How long after a guest's last request the room counts as quiet. */
const QUIET_AFTER_MS = 1000;
/** The longest rest after one step: a slow step must not leave the auditor waiting long. */
const MAX_REST_MS = 1000;

/**
 * The room's clock, in memory the auditor's threads share (epoch ms): [0] when a guest last asked for
 * something, [1] when the auditor may take its next step. Every kind of auditor work (verify on its
 * thread, reads in the API) waits for the same next step and pushes it on after its own, so that two
 * at once (an auditor with two tabs) keep to one share, not to the sum of two.
 */
export type RoomClock = BigInt64Array<SharedArrayBuffer>;

export function newRoomClock(): RoomClock {
  return new BigInt64Array(new SharedArrayBuffer(16));
}

// The room's clock is read with Date.now(): elapsed time shared across threads (a thread's
// performance.now() counts from its own start), not domain time (decision 147).
export function roomAsked(clock: RoomClock): void {
  Atomics.store(clock, 0, BigInt(Date.now()));
}

const roomBusy = (clock: RoomClock) => Date.now() - Number(Atomics.load(clock, 0)) < QUIET_AFTER_MS;

/** How long to rest after a step of `spentMs`: the steps take `share` of the time while the room is busy. */
export function restAfter(spentMs: number, clock: RoomClock, share: number): number {
  return roomBusy(clock) ? Math.min(MAX_REST_MS, spentMs * (1 / share - 1)) : 0;
}

/** After a step of `spentMs`: the auditor's next step, whoever takes it, waits for the rest it earned. */
export function rested(spentMs: number, clock: RoomClock, share: number): void {
  const rest = restAfter(spentMs, clock, share);
  if (rest <= 0) return;
  const next = BigInt(Math.ceil(Date.now() + rest));
  for (;;) {
    const now = Atomics.load(clock, 1);
    if (now >= next || Atomics.compareExchange(clock, 1, now, next) === now) return;
  }
}

/** Waits for the auditor's next step while the room is busy (never longer than a rest can be). */
export async function nextStep(clock: RoomClock): Promise<void> {
  for (let waited = 0; roomBusy(clock) && waited < MAX_REST_MS;) {
    const wait = Number(Atomics.load(clock, 1)) - Date.now();
    if (wait <= 0) return;
    await sleep(wait);
    waited += wait;
  }
}

/**
 * A function to call between an auditor's steps on its own thread: while the room is busy it rests in
 * proportion to the work done since the last call, and until any other auditor work's rest is over;
 * otherwise it is a turn of the thread's loop (verify's slices, on the verify thread).
 */
export function pacer(clock: RoomClock, share = VERIFY_SHARE): () => Promise<void> {
  let resumed = performance.now();
  return async () => {
    rested(performance.now() - resumed, clock, share);
    if (roomBusy(clock)) await nextStep(clock);
    else await new Promise((resolve) => setImmediate(resolve));
    resumed = performance.now();
  };
}

/** One app's room: its guests' requests, and the auditor's reads that wait for their turn. */
export class AuditorPace {
  readonly clock = newRoomClock();
  readonly share: number;
  #line: Promise<unknown> = Promise.resolve();

  constructor(share = READ_SHARE) {
    this.share = share;
  }

  /** A guest's request: the auditor keeps to its share for a while. */
  roomAsked(): void {
    roomAsked(this.clock);
  }

  /** Whether a guest asked for something in the last second: the auditor's reads then take turns. */
  busy(): boolean {
    return roomBusy(this.clock);
  }

  /**
   * An auditor's read in its turn: while the room is busy, one at a time, each after the rest the
   * auditor's last step earned (this app's reads' and its verify's). The answer is not held back by
   * its own rest; the next step is. Its cost is `before` (ms the request spent in the API before it
   * asked for its turn) and the time from its turn to `until` (its answer's last byte), or to the
   * read's end without it.
   */
  inTurn<T>(
    read: () => Promise<T>,
    { before = 0, until }: { before?: number; until?: Promise<unknown> } = {},
  ): Promise<T> {
    if (!this.busy()) return read();
    let started = 0;
    const turn = this.#line.then(async () => {
      await nextStep(this.clock);
      started = performance.now();
      return read();
    });
    // the next waits for this one and its answer sent, whatever this one's outcome, then for its rest
    this.#line = turn
      .catch(() => {})
      .then(() => until?.catch(() => {}))
      .then(() => rested(before + performance.now() - started, this.clock, this.share));
    return turn;
  }
}
