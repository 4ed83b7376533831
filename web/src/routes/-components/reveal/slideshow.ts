import { storyAuthor, storyTitle } from '../../../queries/stories.ts';
import type { ItemView } from '../../../../../contract/views.ts';

/** How long a picture or a story stays up. */
export const SLIDE_MS = 8000;
/** Video and audio play to their end, but never longer than this. */
export const MEDIA_MAX_MS = 30_000;
/** When something new is waiting, the current picture or story ends after this much, if it has not yet. */
export const ARRIVAL_MIN_MS = 2500;

/** 'kind:id' */
export type SlideKey = string;
export const slideKey = (item: Pick<ItemView, 'kind' | 'id'>): SlideKey => `${item.kind}:${item.id}`;

export interface SlideshowState {
  current: SlideKey | null;
  /** Counts every move, so a deck of one still restarts its timer. */
  step: number;
  /** Arrivals waiting to be shown next, oldest first. */
  upNext: SlideKey[];
  /** Where the deck carries on after the arrivals have been shown. */
  resumeFrom: SlideKey | null;
  /** The current slide is one that arrived live. */
  arrival: boolean;
}

export type SlideshowAction =
  | { type: 'next'; deck: readonly SlideKey[] }
  | { type: 'previous'; deck: readonly SlideKey[] }
  | { type: 'arrived'; key: SlideKey }
  | { type: 'removed'; key: SlideKey; deck: readonly SlideKey[] };

export const initialSlideshow: SlideshowState = {
  current: null,
  step: 0,
  upNext: [],
  resumeFrom: null,
  arrival: false,
};

function after(deck: readonly SlideKey[], key: SlideKey | null): SlideKey | null {
  if (deck.length === 0) return null;
  const index = key === null ? -1 : deck.indexOf(key);
  return deck[(index + 1) % deck.length] ?? null;
}

function before(deck: readonly SlideKey[], key: SlideKey): SlideKey | null {
  if (deck.length === 0) return null;
  const index = deck.indexOf(key);
  return deck[index <= 0 ? deck.length - 1 : index - 1] ?? null;
}

/** The slideshow's moves: the deck in the gallery's order, with live arrivals shown next. */
export function slideshow(state: SlideshowState, action: SlideshowAction): SlideshowState {
  const moveTo = (current: SlideKey | null, rest: Partial<SlideshowState> = {}): SlideshowState => ({
    ...state,
    arrival: false,
    ...rest,
    current,
    step: state.step + 1,
  });
  switch (action.type) {
    case 'next': {
      const [arrival, ...upNext] = state.upNext;
      if (arrival) return moveTo(arrival, { upNext, resumeFrom: state.resumeFrom ?? state.current, arrival: true });
      if (state.resumeFrom) return moveTo(after(action.deck, state.resumeFrom), { resumeFrom: null });
      return moveTo(after(action.deck, state.current));
    }
    case 'previous': {
      if (state.current && action.deck.includes(state.current))
        return moveTo(before(action.deck, state.current), { resumeFrom: null });
      // An arrival that is not in the deck yet: back to where the deck was.
      return moveTo(state.resumeFrom ?? action.deck[0] ?? null, { resumeFrom: null });
    }
    case 'arrived': {
      if (state.current === null) return moveTo(action.key, { arrival: true });
      if (state.current === action.key || state.upNext.includes(action.key)) return state;
      return { ...state, upNext: [...state.upNext, action.key] };
    }
    case 'removed': {
      const upNext = state.upNext.filter((key) => key !== action.key);
      if (state.current !== action.key) return { ...state, upNext };
      return slideshow({ ...state, upNext }, { type: 'next', deck: action.deck });
    }
    default: {
      const unreachable: never = action;
      return unreachable;
    }
  }
}

/** The words under a slide and in the screen reader's announcement. */
export function slideCaption(item: ItemView): { title: string; by: string; kind: string } {
  switch (item.kind) {
    case 'artwork':
      return { title: item.title?.trim() || 'Untitled', by: item.artistName, kind: 'Artwork' };
    case 'story':
      return { title: storyTitle(item), by: storyAuthor(item), kind: 'Story' };
    case 'media': {
      const video = item.mediaType === 'video';
      return {
        title: item.title?.trim() || (video ? 'Untitled video' : 'Untitled audio'),
        by: item.artistName,
        kind: video ? 'Video' : 'Audio',
      };
    }
    default: {
      const unreachable: never = item;
      return unreachable;
    }
  }
}
