import { describe, expect, it } from 'vitest';
import { LiveSequence, type LiveMessage } from './sequence.ts';

// `after` is the position of the previous message for this audience (contract/live.ts)
const like = (position: number, after = position - 1): LiveMessage => ({
  event: 'likes:changed',
  payload: { position, after, kind: 'story', id: 1, likeCount: position },
});
const queue = (position: number, after = position - 1): LiveMessage => ({
  event: 'admin:queue-changed',
  payload: { position, after, kind: 'story', pending: { artworks: 0, stories: 0, media: 0 }, archived: 0 },
});
const added = (position: number, after = position - 1): LiveMessage => ({
  event: 'gallery:item-added',
  payload: {
    position,
    after,
    kind: 'story',
    day: '2026-01-01',
    item: {
      kind: 'story',
      id: position,
      title: null,
      description: null,
      tags: null,
      artistName: 'A',
      status: 'approved',
      archived: false,
      createdAt: '2026-01-01T00:00:00.000Z',
      approvedAt: null,
      archivedAt: null,
      content: 'x',
      authorName: 'A',
      isAnonymous: false,
      likeCount: 0,
      commentCount: 0,
      viewCount: 0,
      reactions: {},
      card: null,
      order: '0',
    },
  },
});

function sequence() {
  const applied: string[] = [];
  let refetches = 0;
  let resyncs = 0;
  const live = new LiveSequence({
    apply: (message) => applied.push(`${message.payload.position}:${message.event}`),
    refetchAll: () => refetches++,
    resync: () => resyncs++,
  });
  return { live, applied, refetches: () => refetches, resyncs: () => resyncs };
}

/** A sequence that has connected once and been told the log stands at `upTo`. */
function connectedAt(upTo: number) {
  const s = sequence();
  expect(s.live.connecting()).toBeUndefined();
  s.live.batch({ upTo, refetch: false, messages: [] });
  return s;
}

describe('live sequence', () => {
  it('holds live messages until the first batch says where the log stands, then applies what follows it', () => {
    const { live, applied } = sequence();
    live.connecting();
    live.receive(like(3, 2));
    expect(applied).toEqual([]);
    live.batch({ upTo: 2, refetch: false, messages: [] });
    live.receive(like(5, 3));
    expect(applied).toEqual(['3:likes:changed', '5:likes:changed']);
    expect(live.lastPosition).toBe(5);
  });

  it('applies the messages of one position once each (an approval and its queue change)', () => {
    const { live, applied, resyncs } = connectedAt(6);
    live.receive(added(7, 6));
    live.receive(queue(7, 6));
    expect(applied).toEqual(['7:gallery:item-added', '7:admin:queue-changed']);
    expect(resyncs()).toBe(0);
  });

  it('applies every removal of an erasure at one position, and takes only a true repeat for a gap (issue 21)', () => {
    const { live, applied, resyncs } = connectedAt(6);
    const removed = (id: number): LiveMessage => ({
      event: 'gallery:item-removed',
      payload: { position: 7, after: 6, kind: 'artwork', id, day: '2026-11-26', order: String(id) },
    });
    const commentRemoved = (commentId: number): LiveMessage => ({
      event: 'comments:removed',
      payload: { position: 7, after: 6, kind: 'story', id: 3, commentId, commentCount: 0 },
    });
    for (const m of [removed(1), removed(2), commentRemoved(8), commentRemoved(9), queue(7, 6)]) live.receive(m);
    expect(applied).toEqual([
      '7:gallery:item-removed',
      '7:gallery:item-removed',
      '7:comments:removed',
      '7:comments:removed',
      '7:admin:queue-changed',
    ]);
    expect(resyncs()).toBe(0);
    live.receive(removed(2));
    expect(resyncs()).toBe(1);
  });

  it('skips positions that had nothing for this audience: `after` says what came before', () => {
    const { live, applied, resyncs } = connectedAt(10);
    live.receive(like(14, 10));
    live.receive(like(20, 14));
    expect(applied).toEqual(['14:likes:changed', '20:likes:changed']);
    expect(resyncs()).toBe(0);
  });

  it('asks for a resync at a gap instead of applying past it, and applies what the batch brings', () => {
    const { live, applied, resyncs } = connectedAt(10);
    live.receive(like(11, 10));
    live.receive(like(13, 12)); // 12 never arrived
    expect(resyncs()).toBe(1);
    expect(applied).toEqual(['11:likes:changed']);
    live.receive(like(14, 13)); // held: the resync's batch comes first
    // 11 came live, so more of its step may have been on the way: the batch is asked from before it
    expect(live.connecting()).toBe(10);
    live.batch({ upTo: 13, refetch: false, messages: [like(11, 10), like(12, 11), like(13, 12)] });
    live.receive(like(14, 13));
    expect(applied).toEqual(['11:likes:changed', '12:likes:changed', '13:likes:changed', '14:likes:changed']);
  });

  it('asks for a resync when a position goes backwards or repeats, never dropping it silently', () => {
    const { live, applied, resyncs } = connectedAt(5);
    live.receive(like(6, 5));
    live.receive(like(4, 3));
    expect(resyncs()).toBe(1);
    live.connecting();
    live.batch({ upTo: 6, refetch: false, messages: [] });
    live.receive(like(6, 5));
    expect(resyncs()).toBe(2);
    expect(applied).toEqual(['6:likes:changed']);
  });

  it('after a reconnect, applies the batch in order, then the live messages after its upTo', () => {
    const { live, applied } = connectedAt(9);
    live.receive(like(10, 9));
    expect(live.connecting()).toBe(9);
    expect(live.awaitingBatch).toBe(true);
    live.receive(like(14, 13));
    live.receive(queue(14, 13));
    live.batch({ upTo: 13, refetch: false, messages: [added(11, 10), queue(11, 10), like(12, 11), added(13, 12)] });
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
  });

  it('refetches everything when told to, and carries on from upTo even if it is lower than before', () => {
    const { live, applied, refetches, resyncs } = connectedAt(0);
    live.receive(like(1, 0));
    live.connecting();
    live.batch({ upTo: 750, refetch: true, messages: [] });
    live.receive(like(800, 750));
    expect(refetches()).toBe(1);
    expect(applied).toEqual(['1:likes:changed', '800:likes:changed']);
    live.connecting();
    live.batch({ upTo: 700, refetch: true, messages: [] });
    live.receive(like(701, 700));
    expect(resyncs()).toBe(0);
    expect(applied.at(-1)).toBe('701:likes:changed');
  });

  it('forgets what a broken attempt held: the next batch covers it', () => {
    const { live, applied } = connectedAt(0);
    live.receive(like(1, 0));
    live.connecting();
    live.receive(like(2, 1));
    live.connecting();
    live.batch({ upTo: 3, refetch: false, messages: [like(2, 1), like(3, 2)] });
    expect(applied).toEqual(['1:likes:changed', '2:likes:changed', '3:likes:changed']);
  });
});

describe('live sequence: catch-up batches', () => {
  it('asks again for a step the connection dropped in the middle of, and applies only what it lacked', () => {
    // the convergence run's lost message (seed 1043): an erasure's comment removal came, its
    // queue change was on its way when the connection dropped, and the batch was asked from after it
    const { live, applied, resyncs } = connectedAt(162);
    const removed: LiveMessage = {
      event: 'comments:removed',
      payload: { position: 163, after: 162, kind: 'story', id: 9, commentId: 12, commentCount: 3 },
    };
    live.receive(removed);
    expect(live.connecting()).toBe(162);
    live.batch({ upTo: 164, refetch: false, messages: [removed, queue(163, 162), like(164, 163)] });
    expect(applied).toEqual(['163:comments:removed', '163:admin:queue-changed', '164:likes:changed']);
    // a step a batch closed is whole: the next reconnect asks from after it
    expect(live.connecting()).toBe(164);
    live.batch({ upTo: 164, refetch: false, messages: [] });
    live.receive(like(165, 164));
    expect(resyncs()).toBe(0);
    expect(applied.at(-1)).toBe('165:likes:changed');
  });

  it('applies a batch whose counters were coalesced without taking the skipped steps for a gap', () => {
    const { live, applied, resyncs } = connectedAt(10);
    live.connecting();
    // likes at 11..14 coalesced to the one at 14, whose `after` (13) was never sent
    live.batch({ upTo: 15, refetch: false, messages: [like(14, 13), added(15, 14)] });
    live.receive(like(16, 15));
    expect(applied).toEqual(['14:likes:changed', '15:gallery:item-added', '16:likes:changed']);
    expect(resyncs()).toBe(0);
  });
});

describe('a mural that comes on the page (decision 116)', () => {
  const stroke = (position: number, after: number): LiveMessage => ({
    event: 'mural:stroke-added',
    payload: {
      position,
      after,
      stroke: {
        id: position,
        position,
        authorId: 'a',
        tool: 'brush',
        color: '#000000',
        size: 2,
        opacity: 100,
        points: [[1, 1]],
      },
    },
  });

  it('takes the first stroke after the join, whose `after` names a stroke sent before it joined', () => {
    const s = connectedAt(10);
    s.live.receive(like(12, 10));
    // strokes at 13 and 14 went to the mural's room before this socket was in it
    s.live.joinedMural(14);
    s.live.receive(stroke(15, 14));
    s.live.receive(like(16, 12));
    expect(s.applied).toEqual(['12:likes:changed', '15:mural:stroke-added', '16:likes:changed']);
    expect(s.resyncs()).toBe(0);
  });

  it('still sees a stroke missed after the join, and forgets the join on a new connection', () => {
    const s = connectedAt(10);
    s.live.joinedMural(10);
    s.live.receive(stroke(11, 10));
    s.live.receive(stroke(13, 12));
    expect(s.resyncs()).toBe(1);
    expect(s.applied).toEqual(['11:mural:stroke-added']);
    // the reconnect's handshake asks for the mural's room: its catch-up, not the old join, covers it
    expect(s.live.connecting()).toBe(10);
    s.live.batch({ upTo: 13, refetch: false, messages: [stroke(12, 11), stroke(13, 12)] });
    s.live.receive(stroke(20, 18));
    expect(s.resyncs()).toBe(2);
  });
});
