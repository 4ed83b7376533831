/**
 * The drawing studio's undo history (spec §4 Drawing), kept pure so its rules can be read and tested
 * without a canvas. `past` ends with the state on screen; `future` ends with the last undone state.
 */
export interface DrawingHistory<Snapshot> {
  readonly past: readonly Snapshot[];
  readonly future: readonly Snapshot[];
}

/** The first snapshot is the blank canvas. */
export function startHistory<Snapshot>(blank: Snapshot): DrawingHistory<Snapshot> {
  return { past: [blank], future: [] };
}

/** The end of a stroke or shape, or a Clear: a new snapshot, and whatever had been undone is gone. */
export function record<Snapshot>(history: DrawingHistory<Snapshot>, snapshot: Snapshot): DrawingHistory<Snapshot> {
  return { past: [...history.past, snapshot], future: [] };
}

/** Undo needs at least two snapshots: the blank canvas itself cannot be undone. */
export function canUndo(history: DrawingHistory<unknown>): boolean {
  return history.past.length >= 2;
}

export function canRedo(history: DrawingHistory<unknown>): boolean {
  return history.future.length > 0;
}

/** Moves the state on screen onto the redo list; unchanged when there is nothing to undo. */
export function undo<Snapshot>(history: DrawingHistory<Snapshot>): DrawingHistory<Snapshot> {
  if (!canUndo(history)) return history;
  return { past: history.past.slice(0, -1), future: [...history.future, history.past.at(-1)!] };
}

/** Restores the last undone state; unchanged when nothing was undone. */
export function redo<Snapshot>(history: DrawingHistory<Snapshot>): DrawingHistory<Snapshot> {
  if (!canRedo(history)) return history;
  return { past: [...history.past, history.future.at(-1)!], future: history.future.slice(0, -1) };
}

/** The state that should be on screen. */
export function current<Snapshot>(history: DrawingHistory<Snapshot>): Snapshot {
  return history.past.at(-1)!;
}
