import { useCallback, useEffect, useMemo, useReducer, useRef, useState } from 'react';
import { useLiveMessages } from '../../../live/connection.ts';
import {
  ARRIVAL_MIN_MS,
  initialSlideshow,
  MEDIA_MAX_MS,
  SLIDE_MS,
  slideKey,
  slideshow,
  type SlideKey,
} from './slideshow.ts';
import type { ItemView } from '../../../../../contract/views.ts';

export interface Slideshow {
  item: ItemView | undefined;
  /** Changes on every move: a key for the slide, so it enters (and its media starts) afresh. */
  step: number;
  /** 1-based place in the deck; null for an arrival the deck does not hold yet. */
  place: number | null;
  arrived: boolean;
  paused: boolean;
  next: () => void;
  previous: () => void;
  togglePause: () => void;
  /** For video and audio: once playing, they end their slide themselves. */
  playing: () => void;
  ended: () => void;
}

/**
 * Drives the slideshow over the gallery's items: a picture or story every 8 s, video and audio until
 * they end (at most 30 s), and an item approved meanwhile shown next, within a few seconds.
 */
export function useSlideshow(items: readonly ItemView[] | undefined): Slideshow {
  const [state, dispatch] = useReducer(slideshow, initialSlideshow);
  const [arrivals, setArrivals] = useState<ReadonlyMap<SlideKey, ItemView>>(new Map());
  const [paused, setPaused] = useState(false);

  const deck = useMemo(() => items?.map(slideKey) ?? [], [items]);
  const byKey = useMemo(() => new Map(items?.map((item) => [slideKey(item), item])), [items]);
  const deckRef = useRef(deck);
  deckRef.current = deck;

  const item = state.current === null ? undefined : (byKey.get(state.current) ?? arrivals.get(state.current));
  const missing = state.current !== null && item === undefined;

  useLiveMessages((message) => {
    if (message.event === 'gallery:item-added') {
      const key = slideKey(message.payload.item);
      setArrivals((map) => new Map(map).set(key, message.payload.item));
      dispatch({ type: 'arrived', key });
    } else if (message.event === 'gallery:item-removed') {
      const key = slideKey(message.payload);
      setArrivals((map) => {
        const rest = new Map(map);
        rest.delete(key);
        return rest;
      });
      dispatch({ type: 'removed', key, deck: deckRef.current });
    }
  });

  // Start once the deck is there; move on when the slide left the gallery without a message.
  const current = state.current;
  useEffect(() => {
    if ((current === null && deck.length > 0) || missing) dispatch({ type: 'next', deck });
  }, [current, deck, missing]);

  // How long the current slide has been up, not counting pauses.
  const shownAt = useRef(0);
  const elapsedAtPause = useRef(0);
  useEffect(() => {
    shownAt.current = Date.now();
    elapsedAtPause.current = 0;
  }, [state.step]);

  // Video and audio hold the screen once they play; one the browser would not start is a still slide.
  const [playingStep, setPlayingStep] = useState(-1);
  const stepRef = useRef(state.step);
  stepRef.current = state.step;
  const holds = item?.kind === 'media' && playingStep === state.step;
  const waiting = state.upNext.length > 0;
  useEffect(() => {
    if (paused || !item) return;
    const elapsed = Date.now() - shownAt.current;
    let wait = (holds ? MEDIA_MAX_MS : SLIDE_MS) - elapsed;
    // A playing video is not cut short for an arrival; a picture or a story is.
    if (waiting && !holds) wait = Math.min(wait, ARRIVAL_MIN_MS - elapsed);
    const timer = setTimeout(() => dispatch({ type: 'next', deck: deckRef.current }), Math.max(0, wait));
    return () => clearTimeout(timer);
  }, [state.step, paused, item, holds, waiting]);

  const next = useCallback(() => dispatch({ type: 'next', deck: deckRef.current }), []);
  const previous = useCallback(() => dispatch({ type: 'previous', deck: deckRef.current }), []);
  const togglePause = useCallback(() => {
    if (paused) shownAt.current = Date.now() - elapsedAtPause.current;
    else elapsedAtPause.current = Date.now() - shownAt.current;
    setPaused(!paused);
  }, [paused]);
  const playing = useCallback(() => setPlayingStep(stepRef.current), []);
  const ended = useCallback(() => {
    if (!paused) next();
  }, [paused, next]);

  const index = state.current === null ? -1 : deck.indexOf(state.current);
  return {
    item,
    step: state.step,
    place: index >= 0 ? index + 1 : null,
    arrived: state.arrival,
    paused,
    next,
    previous,
    togglePause,
    playing,
    ended,
  };
}
