import { describe, expect, it } from 'vitest';
import { initialSlideshow, slideCaption, slideshow, type SlideshowAction, type SlideshowState } from './slideshow.ts';

const deck = ['artwork:1', 'story:2', 'media:3'];
const run = (actions: SlideshowAction[], from: SlideshowState = initialSlideshow) => actions.reduce(slideshow, from);
const next = { type: 'next', deck } as const;
const previous = { type: 'previous', deck } as const;

describe('slideshow', () => {
  it('starts at the first slide and cycles through the deck both ways', () => {
    expect(run([next]).current).toBe('artwork:1');
    expect(run([next, next, next]).current).toBe('media:3');
    expect(run([next, next, next, next]).current).toBe('artwork:1');
    expect(run([next, previous]).current).toBe('media:3');
    expect(run([next, next, previous]).current).toBe('artwork:1');
  });

  it('shows arrivals next, oldest first, then carries on where the deck was', () => {
    const state = run([
      next,
      next,
      { type: 'arrived', key: 'story:9' },
      { type: 'arrived', key: 'artwork:8' },
      { type: 'arrived', key: 'story:9' },
    ]);
    expect(state.current).toBe('story:2');
    expect(state.upNext).toEqual(['story:9', 'artwork:8']);
    const shown = [next, next, next].reduce<SlideshowState[]>(
      (states, action) => [...states, slideshow(states.at(-1)!, action)],
      [state],
    );
    expect(shown.slice(1).map((s) => s.current)).toEqual(['story:9', 'artwork:8', 'media:3']);
    expect(shown.slice(1).map((s) => s.arrival)).toEqual([true, true, false]);
  });

  it('shows an arrival at once when nothing was showing, and goes back from an arrival to where it was', () => {
    expect(run([{ type: 'arrived', key: 'story:9' }]).current).toBe('story:9');
    expect(run([next, { type: 'arrived', key: 'story:9' }, next, previous]).current).toBe('artwork:1');
  });

  it('skips a removed slide, now or later', () => {
    const state = run([next, { type: 'arrived', key: 'story:9' }, { type: 'removed', key: 'story:9', deck }]);
    expect(state.upNext).toEqual([]);
    expect(run([next, { type: 'removed', key: 'artwork:1', deck }]).current).toBe('story:2');
  });

  it('counts every move, so a deck of one restarts its timer', () => {
    const single = run([
      { type: 'next', deck: ['story:2'] },
      { type: 'next', deck: ['story:2'] },
    ]);
    expect(single.current).toBe('story:2');
    expect(single.step).toBe(2);
  });

  it('names each kind of slide', () => {
    // an item view's fields the caption does not read
    const base = {
      title: null,
      description: null,
      tags: null,
      artistName: '',
      status: 'approved',
      archived: false,
      createdAt: '2026-01-01T00:00:00.000Z',
      approvedAt: null,
      archivedAt: null,
      likeCount: 0,
      commentCount: 0,
      viewCount: 0,
      reactions: {},
    };
    const artwork = { isFromCanvas: 'false', imageData: '', thumbnailUrl: '', originalUrl: '', altText: null };
    const audio = {
      mimeType: 'audio/mpeg',
      mediaData: '',
      streamUrl: '',
      thumbnailUrl: null,
      durationSeconds: 1,
      processing: false,
      captionsUrl: null,
    };
    expect(slideCaption({ ...base, ...artwork, kind: 'artwork', id: 1, title: '', artistName: 'Sam' })).toEqual({
      title: 'Untitled',
      by: 'Sam',
      kind: 'Artwork',
    });
    expect(
      slideCaption({
        ...base,
        kind: 'story',
        id: 2,
        content: 'One two three four five six seven',
        authorName: 'Jo',
        isAnonymous: true,
      }),
    ).toEqual({
      title: 'One two three four five six...',
      by: 'Anonymous',
      kind: 'Story',
    });
    expect(
      slideCaption({ ...base, ...audio, kind: 'media', id: 3, mediaType: 'audio', artistName: 'Val', title: 'Song' }),
    ).toEqual({
      title: 'Song',
      by: 'Val',
      kind: 'Audio',
    });
  });
});
