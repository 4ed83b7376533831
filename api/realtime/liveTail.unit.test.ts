import { describe, expect, it } from 'vitest';
import type { LiveMessage } from '#contract/live.ts';
import { forCatchUp } from './liveTail.ts';

const like = (position: number, id: number, likeCount: number) =>
  ({ event: 'likes:changed', payload: { position, after: position - 1, kind: 'story', id, likeCount } }) as LiveMessage;
const comment = (position: number, id: number) =>
  ({
    event: 'comments:added',
    payload: { position, after: position - 1, kind: 'story', id, comment: { id: position }, commentCount: 1 },
  }) as LiveMessage;
const queue = (position: number, stories: number) =>
  ({
    event: 'admin:queue-changed',
    payload: { position, after: position - 1, kind: 'story', pending: { artworks: 0, stories, media: 0 }, archived: 0 },
  }) as LiveMessage;

describe('a catch-up batch', () => {
  it('keeps every comment, and of each counter only its last value, in order', () => {
    const batch = forCatchUp([like(1, 7, 1), comment(2, 7), like(3, 8, 1), queue(4, 2), like(5, 7, 2), queue(6, 1)]);
    expect(batch.map((m) => m.payload.position)).toEqual([2, 3, 5, 6]);
    expect(batch.find((m) => m.payload.position === 5)).toMatchObject({ payload: { likeCount: 2 } });
  });
});
