/**
 * Every event type the log holds, grouped as the audit console lists them, with the words an auditor
 * reads at a glance (CONTRACT §6). An item's own events say only the verb ("Approved"): the item is
 * named beside them. The web app's type filter and descriptions come from here; the log's
 * registry (events/catalog.ts) refuses to compile when one of its types is missing, and a unit test
 * fails when this lists a type the registry does not know (docs/decisions/048).
 */
export const EVENT_GROUPS = [
  {
    label: 'Artworks',
    words: {
      ArtworkSubmitted: 'Artwork submitted',
      ArtworkRenditionsMade: 'Image sizes made',
      ArtworkApproved: 'Approved',
      ArtworkRejected: 'Rejected',
      ArtworkArchived: 'Archived',
      ArtworkUnarchived: 'Restored from the archive',
      ArtworkDeleted: 'Deleted',
      ArtworkEdited: 'Edited by its sender',
      ArtworkWithdrawn: 'Withdrawn by its sender',
    },
  },
  {
    label: 'Stories',
    words: {
      StorySubmitted: 'Story submitted',
      StoryApproved: 'Approved',
      StoryRejected: 'Rejected',
      StoryDeleted: 'Deleted',
      StoryEdited: 'Edited by its sender',
      StoryWithdrawn: 'Withdrawn by its sender',
    },
  },
  {
    label: 'Media',
    words: {
      MediaSubmitted: 'Media submitted',
      MediaProcessed: 'Media processed',
      MediaCaptioned: 'Captions set',
      MediaApproved: 'Approved',
      MediaRejected: 'Rejected',
      MediaDeleted: 'Deleted',
      MediaEdited: 'Edited by its sender',
      MediaWithdrawn: 'Withdrawn by its sender',
    },
  },
  {
    label: 'Visitors',
    words: {
      ItemLiked: 'Liked',
      ItemUnliked: 'Like taken back',
      ItemViewed: 'Viewed',
      CommentPosted: 'Comment posted',
      CommentRemoved: 'Comment removed',
    },
  },
  {
    label: 'The show',
    words: {
      ShowStarted: 'Show started',
      ShowMoved: 'Show moved to another item',
      ShowItemQueued: 'Item put next in the show',
      ShowPaused: 'Show paused',
      ShowResumed: 'Show resumed',
      ShowStopped: 'Show stopped',
      ReactionsCounted: 'Reactions counted',
    },
  },
  {
    label: 'The mural',
    words: {
      MuralStrokeDrawn: 'Stroke drawn on the mural',
      MuralStrokeErased: 'Stroke erased from the mural',
      MuralLocked: 'Mural locked',
      MuralUnlocked: 'Mural unlocked',
      MuralFrozen: 'Mural frozen into an artwork',
    },
  },
  {
    label: 'Erasure',
    words: {
      SubjectErased: 'Person erased',
    },
  },
] as const;

type Words = (typeof EVENT_GROUPS)[number]['words'];
type KeysOf<T> = T extends unknown ? keyof T : never;
export type DescribedEventType = KeysOf<Words>;

export const EVENT_WORDS = Object.fromEntries(EVENT_GROUPS.flatMap((g) => Object.entries(g.words))) as Record<
  DescribedEventType,
  string
>;
