import { describe, expect, it } from 'vitest';
import type { RecordedEvent } from '#events/store.ts';
import { runsOf, scopeOf } from './runs.ts';

let position = 0;
const event = (type: string, data: Record<string, unknown>) =>
  ({ type, data, position: ++position, seq: position }) as unknown as RecordedEvent;
const submitted = (artworkId: number) => event('ArtworkSubmitted', { artworkId });
const approved = (artworkId: number) => event('ArtworkApproved', { artworkId });
const liked = (itemId: number, visitorKey = 'v') => event('ItemLiked', { kind: 'artwork', itemId, visitorKey });
const unliked = (itemId: number, visitorKey = 'v') => event('ItemUnliked', { kind: 'artwork', itemId, visitorKey });
/** a type the catalog handles across items (SubjectErased) or one not yet given a scope */
const barrier = () => event('SomeoneErased', { subjectId: 1 });

const shape = (runs: RecordedEvent[][]) => runs.map((run) => run.map((e) => `${e.type} ${scopeOf(e) ?? '*'}`));

describe('runs of a catalog batch', () => {
  it('gathers one type from many items into one run, each item in its own order', () => {
    const runs = runsOf([submitted(1), approved(1), liked(1, 'a'), submitted(2), liked(1, 'b'), approved(2), liked(2)]);
    expect(shape(runs)).toEqual([
      ['ArtworkSubmitted artwork-1', 'ArtworkSubmitted artwork-2'],
      ['ArtworkApproved artwork-1', 'ArtworkApproved artwork-2'],
      ['ItemLiked artwork-1', 'ItemLiked artwork-1', 'ItemLiked artwork-2'],
    ]);
  });

  it('never moves an event past an earlier one about the same item', () => {
    const runs = runsOf([liked(1), unliked(1), liked(2), liked(1)]);
    expect(shape(runs)).toEqual([
      ['ItemLiked artwork-1', 'ItemLiked artwork-2'],
      ['ItemUnliked artwork-1'],
      ['ItemLiked artwork-1'],
    ]);
  });

  it('moves nothing across an event without a scope', () => {
    const runs = runsOf([liked(1), barrier(), barrier(), liked(2), approved(1)]);
    expect(shape(runs)).toEqual([
      ['ItemLiked artwork-1'],
      ['SomeoneErased *', 'SomeoneErased *'],
      ['ItemLiked artwork-2'],
      ['ArtworkApproved artwork-1'],
    ]);
  });

  it('keeps every event once, in order per item and around barriers, on a long mixed batch', () => {
    let state = 7;
    const random = (n: number) => (state = (state * 48_271) % 2_147_483_647) % n;
    const makers = [submitted, approved, liked, unliked, (id: number) => event('ShowMoved', { index: id })];
    const batch = Array.from({ length: 2000 }, () =>
      random(50) === 0 ? barrier() : makers[random(5)]!(1 + random(30)),
    );
    const runs = runsOf(batch);
    const flat = runs.flat();
    expect(new Set(flat)).toEqual(new Set(batch));
    expect(flat).toHaveLength(batch.length);
    for (const run of runs) expect(new Set(run.map((e) => e.type)).size).toBe(1);
    const order = (events: RecordedEvent[], scope: string | undefined) =>
      events.filter((e) => scopeOf(e) === scope || scopeOf(e) === undefined).map((e) => e.position);
    for (const scope of new Set(batch.map(scopeOf))) expect(order(flat, scope)).toEqual(order(batch, scope));
    expect(runs.length).toBeLessThan(batch.length / 4);
  });
});
