import { describe, expect, it } from 'vitest';
import { coalesce, type Change } from './messages.ts';

type Positioned = Change & { position: number };

describe('coalescing one batch of changes', () => {
  it('makes a hundred likes of one item one change, at the position of the last', () => {
    const likes: Positioned[] = Array.from({ length: 100 }, (_, i) => ({
      what: 'likes',
      kind: 'story',
      id: 7,
      position: 10 + i,
    }));
    expect(coalesce(likes)).toEqual([{ what: 'likes', kind: 'story', id: 7, position: 109 }]);
  });

  it('keeps one like change per item, in the order of each item last change', () => {
    const changes: Positioned[] = [
      { what: 'likes', kind: 'story', id: 1, position: 1 },
      { what: 'likes', kind: 'artwork', id: 1, position: 2 },
      { what: 'likes', kind: 'story', id: 1, position: 3 },
      { what: 'likes', kind: 'story', id: 2, position: 4 },
      { what: 'likes', kind: 'artwork', id: 1, position: 5 },
    ];
    expect(coalesce(changes).map((c) => c.position)).toEqual([3, 4, 5]);
  });

  it('leaves arrivals, removals and comments as they are, each its own message', () => {
    const changes: Positioned[] = [
      { what: 'added', kind: 'story', id: 1, position: 1 },
      { what: 'comment-added', kind: 'story', id: 1, commentId: 1, position: 2 },
      { what: 'comment-added', kind: 'story', id: 1, commentId: 2, position: 3 },
      { what: 'removed', kind: 'story', id: 1, position: 4 },
    ];
    expect(coalesce(changes)).toEqual(changes);
  });

  it('keeps the last queue change and the last show change only', () => {
    const changes: Positioned[] = [
      { what: 'queue', kind: 'story', id: 1, position: 1 },
      { what: 'show', position: 2 },
      { what: 'queue', kind: 'artwork', id: 2, position: 3 },
      { what: 'show', position: 4 },
    ];
    expect(coalesce(changes).map((c) => c.position)).toEqual([3, 4]);
  });

  it('sums the reaction taps of one item into one burst carried by the last of them', () => {
    const changes: Positioned[] = [
      { what: 'reactions', kind: 'story', id: 1, counts: { '👏': 2 }, position: 1 },
      { what: 'reactions', kind: 'story', id: 2, counts: { '🎉': 1 }, position: 2 },
      { what: 'reactions', kind: 'story', id: 1, counts: { '👏': 1, '❤️': 3 }, position: 3 },
    ];
    expect(coalesce(changes)).toEqual([
      { what: 'reactions', kind: 'story', id: 2, counts: { '🎉': 1 }, position: 2 },
      { what: 'reactions', kind: 'story', id: 1, counts: { '👏': 3, '❤️': 3 }, position: 3 },
    ]);
  });
});
