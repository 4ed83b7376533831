import { describe, expect, it } from 'vitest';
import { placeArrival, UNPLACEABLE } from './arrival.ts';
import type { GalleryItemView, GalleryPageView } from '../../../contract/views.ts';

const DAY = '2026-11-26';

/** A story as a guest's page shows it, at `order` in the day's order. */
function story(id: number, order: string): GalleryItemView {
  return {
    kind: 'story',
    id,
    title: `Story ${id}`,
    description: null,
    tags: null,
    artistName: 'A',
    status: 'approved',
    archived: false,
    createdAt: '2026-11-26T10:00:00.000Z',
    approvedAt: '2026-11-26T10:00:00.000Z',
    archivedAt: null,
    likeCount: 0,
    commentCount: 0,
    viewCount: 0,
    reactions: {},
    content: 'x',
    authorName: 'A',
    isAnonymous: false,
    card: null,
    order,
  };
}

function pageOf(page: number, orders: string[], total: number, pageSize = 3): GalleryPageView {
  return {
    day: DAY,
    items: orders.map((order, i) => story(100 + page * 10 + i, order)),
    total,
    page,
    pageSize,
    pageCount: Math.ceil(total / pageSize),
  };
}

const first = ['gallery', { page: 1, q: '' }];
const second = ['gallery', { page: 2, q: '' }];
const orders = (data: unknown) => (data as GalleryPageView).items.map((item) => item.order);
const arrival = (order: string, id = 1, day = DAY) => ({ day, item: story(id, order) });

describe('an approved item placed in cached gallery pages from its live message', () => {
  it('goes where the day puts it, and the last item of a full page moves on to the next', () => {
    const page = placeArrival(first, pageOf(1, ['b', 'd', 'f'], 5), arrival('c'));
    expect(orders(page)).toEqual(['b', 'c', 'd']);
    expect(page).toMatchObject({ total: 6, pageCount: 2, page: 1, day: DAY });
  });

  it('joins the last page at its end, and leaves a full page alone when it sorts after it', () => {
    expect(orders(placeArrival(second, pageOf(2, ['g', 'h'], 5), arrival('z')))).toEqual(['g', 'h', 'z']);
    const full = pageOf(1, ['b', 'd', 'f'], 5);
    const after = placeArrival(first, full, arrival('x')) as GalleryPageView;
    expect(after.items).toBe(full.items);
    expect(after.total).toBe(6);
  });

  it('orders by kind, then id, where two keys are equal, as the server does', () => {
    const page = pageOf(1, ['b', 'b'], 2);
    page.items[0]!.id = 5;
    page.items[1]!.id = 9;
    expect((placeArrival(first, page, arrival('b', 7)) as GalleryPageView).items.map((i) => i.id)).toEqual([5, 7, 9]);
  });

  it('fills the first page of an empty gallery', () => {
    const page = placeArrival(first, pageOf(1, [], 0), arrival('a'));
    expect(page).toMatchObject({ total: 1, pageCount: 1 });
    expect(orders(page)).toEqual(['a']);
  });

  it('grows the reveal deck, which holds the whole gallery as one page', () => {
    const deck = pageOf(1, ['b', 'd', 'f'], 3);
    const page = placeArrival(['gallery', 'reveal'], deck, arrival('e'));
    expect(orders(page)).toEqual(['b', 'd', 'e', 'f']);
    expect(page).toMatchObject({ total: 4, pageSize: 4, pageCount: 1 });
  });

  it('changes nothing when the page already shows the item (an answer from after it)', () => {
    const page = pageOf(1, ['b', 'd', 'f'], 5);
    expect(placeArrival(first, page, { day: DAY, item: page.items[1]! })).toBe(page);
  });

  it('cannot tell a later page that shifts, a search, another day or a page not loaded: those load again', () => {
    expect(placeArrival(second, pageOf(2, ['g', 'h'], 5), arrival('a'))).toBe(UNPLACEABLE);
    expect(placeArrival(['gallery', { page: 1, q: 'sea' }], pageOf(1, ['b'], 1), arrival('a'))).toBe(UNPLACEABLE);
    expect(placeArrival(first, pageOf(1, ['b'], 1), arrival('a', 1, '2026-11-27'))).toBe(UNPLACEABLE);
    expect(placeArrival(first, undefined, arrival('a'))).toBe(UNPLACEABLE);
  });

  it('leaves every other query alone', () => {
    const data = { id: 1 };
    expect(placeArrival(['stories', 1], data, arrival('a'))).toBe(data);
  });
});
