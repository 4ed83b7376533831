import type { EventStore } from '#events/store.ts';
import { reactionStream, type Emoji } from '#events/show/show.ts';
import type { Kind } from '#projections/catalog/items.ts';
import type { ReactionCounts } from '#contract/live.ts';

/** What a flush attempt came to: done (nothing this process added is left waiting), or try again. */
export type FlushOutcome = { done: true; items: number } | { done: false; retryInMs: number };

/**
 * Takes every process's tallies (`reaction_tallies`) and appends one `ReactionsCounted` per item, in
 * one transaction: the tallies go if and only if their events are written, so the totals in the log
 * are exactly what was taken. One flush at a time holds the `reaction_flush` row, and a flush that
 * took something stamps it: the next one waits until `spacingMs` after that stamp, whichever process
 * runs it, so an item gets at most one event per `spacingMs` (docs/decisions/035). The stamp is the
 * database's clock, the same for every process, and it is also each event's `now`.
 */
export async function flushTallies(store: EventStore, spacingMs: number): Promise<FlushOutcome> {
  return store.transaction(async (tx) => {
    const { rows: turn } = await tx.query<{ now: Date; flushed_at: Date }>(
      `SELECT clock_timestamp() AS now, flushed_at FROM reaction_flush WHERE id = 1 FOR UPDATE SKIP LOCKED`,
    );
    // another process is flushing: it may not have seen what this one added, so look again
    if (turn.length === 0) return { done: false, retryInMs: spacingMs };
    // in whole milliseconds, as the events carry the stamp
    const { now, flushed_at: last } = turn[0]!;
    const wait = last.getTime() + spacingMs - now.getTime();
    if (wait > 0) return { done: false, retryInMs: wait };

    const { rows } = await tx.query<{ kind: Kind; item_id: string; emoji: Emoji; taps: number }>(
      `DELETE FROM reaction_tallies RETURNING kind, item_id, emoji, taps`,
    );
    if (rows.length === 0) return { done: true, items: 0 };
    const items = new Map<string, { kind: Kind; id: number; counts: ReactionCounts }>();
    for (const row of rows) {
      const key = `${row.kind}:${row.item_id}`;
      let item = items.get(key);
      if (!item) items.set(key, (item = { kind: row.kind, id: Number(row.item_id), counts: {} }));
      item.counts[row.emoji] = (item.counts[row.emoji] ?? 0) + row.taps;
    }
    const metadata = { role: 'system' as const, now: now.toISOString() };
    for (const { kind, id, counts } of items.values()) {
      const data = { kind, itemId: id, counts };
      await store.append(reactionStream(kind, id), 'any', [{ type: 'ReactionsCounted', data }], metadata, tx);
    }
    await tx.query(`UPDATE reaction_flush SET flushed_at = $1 WHERE id = 1`, [now]);
    return { done: true, items: items.size };
  });
}
