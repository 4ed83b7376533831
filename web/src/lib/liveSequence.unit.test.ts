import { describe, expect, it } from 'vitest';
import { LiveSequence, type LiveMessage } from './liveSequence.ts';

const like = (position: number, likeCount = position): LiveMessage => ({
  event: 'likes:changed',
  payload: { position, kind: 'story', id: 1, likeCount },
});
const queue = (position: number): LiveMessage => ({
  event: 'admin:queue-changed',
  payload: { position, kind: 'story', pending: { artworks: 0, stories: 0, media: 0 }, archived: 0 },
});
const added = (position: number): LiveMessage => ({
  event: 'gallery:item-added',
  payload: {
    position,
    kind: 'story',
    item: {
      kind: 'story',
      id: position,
      content: 'x',
      authorName: 'A',
      isAnonymous: false,
      likeCount: 0,
      commentCount: 0,
    },
  },
});

function sequence() {
  const applied: string[] = [];
  let refetches = 0;
  const live = new LiveSequence({
    apply: (message) => applied.push(`${message.payload.position}:${message.event}`),
    refetchAll: () => refetches++,
  });
  return { live, applied, refetches: () => refetches };
}

describe('live sequence', () => {
  it('applies live messages at once on a first connect, and never one at or below the last position twice', () => {
    const { live, applied } = sequence();
    expect(live.connecting()).toBeUndefined();
    expect(live.awaitingBatch).toBe(false);
    live.receive(like(3));
    live.receive(like(3));
    live.receive(like(2));
    live.receive(like(5));
    expect(applied).toEqual(['3:likes:changed', '5:likes:changed']);
    expect(live.lastPosition).toBe(5);
  });

  it('applies both messages one event gives at the same position (an approval and its queue change)', () => {
    const { live, applied } = sequence();
    live.connecting();
    live.receive(added(7));
    live.receive(queue(7));
    live.receive(added(7));
    expect(applied).toEqual(['7:gallery:item-added', '7:admin:queue-changed']);
  });

  it('after a reconnect, holds live messages until the batch, applies the batch in order, then only newer live ones', () => {
    const { live, applied } = sequence();
    live.receive(like(10));
    expect(live.connecting()).toBe(10);
    expect(live.awaitingBatch).toBe(true);
    // live messages overtaking the batch: 12 is also in it, 14 is not
    live.receive(like(12));
    live.receive(like(14));
    live.receive(queue(14));
    expect(applied).toEqual(['10:likes:changed']);

    live.batch({ upTo: 13, refetch: false, messages: [added(11), queue(11), like(12), added(13)] });
    expect(applied).toEqual([
      '10:likes:changed',
      '11:gallery:item-added',
      '11:admin:queue-changed',
      '12:likes:changed',
      '13:gallery:item-added',
      '14:likes:changed',
      '14:admin:queue-changed',
    ]);
    expect(live.awaitingBatch).toBe(false);
    live.receive(like(13));
    live.receive(queue(13));
    live.receive(like(15));
    expect(applied.at(-1)).toBe('15:likes:changed');
    expect(applied).toHaveLength(8);
  });

  it('drops live messages at upTo even for an event the batch did not carry (the batch closes that position)', () => {
    const { live, applied } = sequence();
    live.receive(like(1));
    live.connecting();
    live.receive(queue(4));
    live.batch({ upTo: 4, refetch: false, messages: [added(4)] });
    expect(applied).toEqual(['1:likes:changed', '4:gallery:item-added']);
    expect(live.lastPosition).toBe(4);
  });

  it('refetches everything when told to, and carries on from upTo', () => {
    const { live, applied, refetches } = sequence();
    live.receive(like(1));
    live.connecting();
    live.receive(like(700));
    live.receive(like(800));
    live.batch({ upTo: 750, refetch: true, messages: [] });
    expect(refetches()).toBe(1);
    expect(applied).toEqual(['1:likes:changed', '800:likes:changed']);
  });

  it('forgets what a broken attempt held: the next batch covers it', () => {
    const { live, applied } = sequence();
    live.receive(like(1));
    live.connecting();
    live.receive(like(2));
    live.connecting();
    live.batch({ upTo: 3, refetch: false, messages: [like(2), like(3)] });
    expect(applied).toEqual(['1:likes:changed', '2:likes:changed', '3:likes:changed']);
  });
});
