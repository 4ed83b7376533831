import type { AdminQueue } from '../queries/admin.ts';
import type { Comment } from '../queries/comments.ts';
import type { FullGalleryItem, GalleryKind } from '../queries/gallery.ts';

/** The positioned server → client events (CONTRACT §4); `position` is the log cursor, which only grows. */
export interface LivePayloads {
  'gallery:item-added': { position: number; kind: GalleryKind; item: FullGalleryItem };
  'gallery:item-removed': { position: number; kind: GalleryKind; id: number };
  'likes:changed': { position: number; kind: GalleryKind; id: number; likeCount: number };
  'comments:added': { position: number; kind: GalleryKind; id: number; comment: Comment; commentCount: number };
  'comments:removed': { position: number; kind: GalleryKind; id: number; commentId: number; commentCount: number };
  'admin:queue-changed': { position: number; kind: GalleryKind } & AdminQueue;
}

export type LiveEvent = keyof LivePayloads;
/** One event with its payload, as a value (the shape of a catch-up batch's messages). */
export type LiveMessage = { [E in LiveEvent]: { event: E; payload: LivePayloads[E] } }[LiveEvent];

/** Sent once to a socket that connected with `since`: what it missed, up to `upTo`, in order. */
export interface SyncBatch {
  upTo: number;
  refetch: boolean;
  messages: LiveMessage[];
}

interface Handlers {
  apply: (message: LiveMessage) => void;
  /** The client missed too much for a batch: every query should load again. */
  refetchAll: () => void;
}

/**
 * Puts live messages and catch-up batches into one order, so nothing is applied twice or skipped
 * (docs/decisions/009). After a (re)connect with `since`, live messages wait until the batch has been
 * applied; then those the batch already covered are dropped.
 *
 * One log event can give two messages at the same position (an approval is `gallery:item-added` and
 * `admin:queue-changed`), so a position is "done" per event name until a batch closes it entirely.
 */
export class LiveSequence {
  readonly #handlers: Handlers;
  #last: number | undefined;
  #eventsAtLast = new Set<LiveEvent>();
  /** Everything up to and including #last is applied (set by a batch's `upTo`). */
  #closed = false;
  /** Live messages held while a batch is awaited; null when not waiting. */
  #buffer: LiveMessage[] | null = null;

  constructor(handlers: Handlers) {
    this.#handlers = handlers;
  }

  /** The position to send as `since` on the next connect, if anything has been applied. */
  get lastPosition(): number | undefined {
    return this.#last;
  }

  get awaitingBatch(): boolean {
    return this.#buffer !== null;
  }

  /**
   * A connection attempt is starting; returns the `since` to send. With a `since`, a batch will come
   * first, so live messages wait for it; whatever an earlier, broken attempt held is dropped, because
   * the new batch covers it.
   */
  connecting(): number | undefined {
    this.#buffer = this.#last === undefined ? null : [];
    return this.#last;
  }

  receive(message: LiveMessage): void {
    if (this.#buffer) this.#buffer.push(message);
    else this.#applyIfNew(message);
  }

  batch(batch: SyncBatch): void {
    const held = this.#buffer ?? [];
    this.#buffer = null;
    if (batch.refetch) this.#handlers.refetchAll();
    else for (const message of batch.messages) this.#applyIfNew(message);
    this.#closeUpTo(batch.upTo);
    for (const message of held) this.#applyIfNew(message);
  }

  #applyIfNew(message: LiveMessage): void {
    const { position } = message.payload;
    const last = this.#last;
    if (
      last !== undefined &&
      (position < last || (position === last && (this.#closed || this.#eventsAtLast.has(message.event))))
    ) {
      return;
    }
    if (position !== last) {
      this.#last = position;
      this.#eventsAtLast.clear();
      this.#closed = false;
    }
    this.#eventsAtLast.add(message.event);
    this.#handlers.apply(message);
  }

  #closeUpTo(upTo: number): void {
    if (this.#last !== undefined && upTo < this.#last) return;
    this.#last = upTo;
    this.#eventsAtLast.clear();
    this.#closed = true;
  }
}
