import {
  ROOM_OF,
  ROOMS,
  type LiveMessage as ContractMessage,
  type SyncBatch as ContractBatch,
} from '../../../contract/live.ts';

/** A live message as the web app sees it (CONTRACT §4, contract/live.ts). */
export type LiveMessage = ContractMessage;
export type SyncBatch = ContractBatch;

interface Handlers {
  apply: (message: LiveMessage) => void;
  /** The client missed too much for a batch: every query should load again. */
  refetchAll: () => void;
  /** A message showed that something was missed: reconnect and catch up from `lastPosition`. */
  resync: () => void;
}

/**
 * What a message is about, within its step: one log event gives at most one message of each event
 * per thing (an erasure: one `gallery:item-removed` per item, one `comments:removed` per comment), so
 * a second message with the same key at one position is one seen twice, or out of order.
 */
function stepKey(message: LiveMessage): string {
  const p = message.payload as { kind?: unknown; id?: unknown; commentId?: unknown; item?: { id?: unknown } };
  return `${message.event}:${String(p.kind ?? '')}:${String(p.id ?? p.item?.id ?? '')}:${String(p.commentId ?? '')}`;
}

/**
 * Puts live messages and catch-up batches into one order, so nothing is applied twice or skipped
 * (docs/decisions/011). After a (re)connect, live messages wait until the batch has been applied.
 *
 * Each message names, in `after`, the position of the message before it for this audience. A
 * message whose `after` lies beyond what was applied, or whose position goes backwards, means
 * something was missed: the sequence stops applying and asks for a resync from its last position,
 * never dropping a message silently. One log event can give several messages at one position (an
 * approval is `gallery:item-added` and `admin:queue-changed`; an erasure removes each of a person's
 * items and comments); they share a position and an `after`.
 */
export class LiveSequence {
  readonly #handlers: Handlers;
  #last: number | undefined;
  /** What was applied at #last, by event and what it names: an erasure removes several items in one step. */
  #appliedAtLast = new Set<string>();
  /** Everything up to and including #last is applied (set by a batch's `upTo`). */
  #closed = false;
  /** Live messages held while a batch is awaited; null when not waiting. */
  #buffer: LiveMessage[] | null = null;
  #resyncs = 0;
  /**
   * Where this connection joined the mural's room (decision 116): the mural's messages before it were
   * never sent here, so one of them named as `after` is no gap; the page's snapshot covers them.
   */
  #muralFrom = -1;

  constructor(handlers: Handlers) {
    this.#handlers = handlers;
  }

  /** The position to send as `since` on the next connect, if anything has been applied. */
  get lastPosition(): number | undefined {
    return this.#last;
  }

  /** How many times a gap made this sequence ask for a resync. */
  get resyncs(): number {
    return this.#resyncs;
  }

  get awaitingBatch(): boolean {
    return this.#buffer !== null;
  }

  /**
   * A connection attempt is starting; returns the `since` to send. A batch comes first; messages wait
   * for it. A step that live messages brought may be here only in part: the connection can drop
   * between the messages of one position (an erasure's removals, an approval's queue change). Unless
   * a batch closed it, the batch is asked from just before it, and brings the whole step again; what
   * of it was applied is not applied twice.
   */
  connecting(): number | undefined {
    this.#buffer = [];
    this.#muralFrom = -1;
    return this.#last === undefined || this.#closed ? this.#last : this.#last - 1;
  }

  /** The connection joined the mural's room with everything up to `upTo` sent. */
  joinedMural(upTo: number): void {
    this.#muralFrom = upTo;
  }

  receive(message: LiveMessage): void {
    if (this.#buffer) this.#buffer.push(message);
    else this.#accept(message);
  }

  batch(batch: SyncBatch): void {
    const held = this.#buffer ?? [];
    this.#buffer = null;
    if (batch.refetch) {
      this.#handlers.refetchAll();
      this.#closeUpTo(batch.upTo, true);
    } else {
      // the batch is the server's account of the range: counters in it are coalesced, so no gap check
      // of a step the batch brings again (decision 160), only what was not applied yet
      for (const message of batch.messages) {
        if (!(this.#ofOpenStep(message) && this.#appliedAtLast.has(stepKey(message)))) this.#apply(message);
      }
      this.#closeUpTo(batch.upTo, false);
    }
    // what the batch covers is done; anything after it goes through the gap check
    for (const message of held) if (message.payload.position > batch.upTo) this.#accept(message);
  }

  #accept(message: LiveMessage): void {
    if (this.#buffer) {
      this.#buffer.push(message);
      return;
    }
    const { position, after } = message.payload;
    const last = this.#last;
    if (last !== undefined) {
      const sameStep = this.#ofOpenStep(message) && !this.#appliedAtLast.has(stepKey(message));
      const floor = ROOM_OF[message.event] === ROOMS.mural ? Math.max(last, this.#muralFrom) : last;
      const next = position > last && after <= floor;
      if (!sameStep && !next) {
        this.#resync();
        return;
      }
    }
    this.#apply(message);
  }

  /** Whether the message is of the step at #last, and no batch has closed that step yet. */
  #ofOpenStep(message: LiveMessage): boolean {
    return message.payload.position === this.#last && !this.#closed;
  }

  #apply(message: LiveMessage): void {
    if (message.payload.position !== this.#last) {
      this.#last = message.payload.position;
      this.#appliedAtLast.clear();
      this.#closed = false;
    }
    this.#appliedAtLast.add(stepKey(message));
    this.#handlers.apply(message);
  }

  /** Stops applying until the reconnect's batch; the batch brings whatever was missed. */
  #resync(): void {
    this.#resyncs++;
    this.#buffer = [];
    this.#handlers.resync();
  }

  #closeUpTo(upTo: number, force: boolean): void {
    if (!force && this.#last !== undefined && upTo < this.#last) return;
    this.#last = upTo;
    this.#appliedAtLast.clear();
    this.#closed = true;
  }
}
