import type { RecordedEvent } from '#events/store.ts';

/**
 * The one thing in the catalog an event is about: an item (its row, its comments and likes), the
 * show or the mural. Events about different scopes touch different rows, so they commute.
 * An event not listed here is a barrier that nothing is moved across: a new type is correct by
 * default (SubjectErased, which takes many items, stays one), and only gets faster once listed.
 */
export function scopeOf(event: RecordedEvent): string | undefined {
  switch (event.type) {
    case 'ArtworkSubmitted':
    case 'ArtworkRenditionsMade':
    case 'ArtworkApproved':
    case 'ArtworkRejected':
    case 'ArtworkArchived':
    case 'ArtworkUnarchived':
    case 'ArtworkDeleted':
    case 'ArtworkEdited':
    case 'ArtworkWithdrawn':
      return `artwork-${event.data.artworkId}`;
    case 'StorySubmitted':
    case 'StoryApproved':
    case 'StoryRejected':
    case 'StoryDeleted':
    case 'StoryEdited':
    case 'StoryWithdrawn':
      return `story-${event.data.storyId}`;
    case 'MediaSubmitted':
    case 'MediaProcessed':
    case 'MediaApproved':
    case 'MediaRejected':
    case 'MediaDeleted':
    case 'MediaEdited':
    case 'MediaWithdrawn':
    case 'MediaCaptioned':
      return `media-${event.data.mediaId}`;
    case 'ItemLiked':
    case 'ItemUnliked':
    case 'ItemViewed':
    case 'CommentPosted':
    // a comment's removal names the item it was posted on (commentDecider)
    case 'CommentRemoved':
    case 'ReactionsCounted':
      return `${event.data.kind}-${event.data.itemId}`;
    case 'ShowStarted':
    case 'ShowMoved':
    case 'ShowItemQueued':
    case 'ShowPaused':
    case 'ShowResumed':
    case 'ShowStopped':
      return 'show';
    case 'MuralStrokeDrawn':
    case 'MuralStrokeErased':
    case 'MuralLocked':
    case 'MuralUnlocked':
    case 'MuralFrozen':
      return 'mural';
    default:
      return undefined;
  }
}

/**
 * Splits a batch into runs of one event type, each applied by one set-based statement. Every scope
 * keeps its own events in log order; runs take the events of many scopes at once, so a log where
 * likes, submissions and approvals interleave folds in a few statements per batch, not one per
 * change of type. Barriers stay where they are, each stretch between them scheduled on its own.
 */
export function runsOf(events: readonly RecordedEvent[]): RecordedEvent[][] {
  const runs: RecordedEvent[][] = [];
  let stretch: RecordedEvent[] = [];
  for (const event of events) {
    if (scopeOf(event) !== undefined) {
      stretch.push(event);
      continue;
    }
    runs.push(...scheduled(stretch));
    stretch = [];
    const last = runs.at(-1);
    if (last && last[0]!.type === event.type && scopeOf(last[0]!) === undefined) last.push(event);
    else runs.push([event]);
  }
  runs.push(...scheduled(stretch));
  return runs;
}

/**
 * Runs over events that all have a scope: each run takes the type of the earliest event not yet
 * taken, then, from every scope whose next event is of that type, its events of that type in a row.
 */
function scheduled(events: readonly RecordedEvent[]): RecordedEvent[][] {
  const scopes = new Map<string, { queue: RecordedEvent[]; next: number }>();
  for (const event of events) {
    const scope = scopeOf(event)!;
    const entry = scopes.get(scope);
    if (entry) entry.queue.push(event);
    else scopes.set(scope, { queue: [event], next: 0 });
  }
  const taken = new Set<RecordedEvent>();
  const runs: RecordedEvent[][] = [];
  let earliest = 0;
  for (;;) {
    while (earliest < events.length && taken.has(events[earliest]!)) earliest++;
    if (earliest === events.length) return runs;
    const type = events[earliest]!.type;
    const run: RecordedEvent[] = [];
    for (const [scope, entry] of scopes) {
      const { queue } = entry;
      while (entry.next < queue.length && queue[entry.next]!.type === type) {
        run.push(queue[entry.next]!);
        taken.add(queue[entry.next++]!);
      }
      if (entry.next === queue.length) scopes.delete(scope);
    }
    runs.push(run);
  }
}
