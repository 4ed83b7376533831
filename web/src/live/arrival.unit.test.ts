import { describe, expect, it } from 'vitest';
import { placeArrival, placeRemoval, UNPLACEABLE } from './arrival.ts';
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

function pageOf(
  page: number,
  orders: string[],
  total: number,
  pageSize = 3,
  position: number | null = 10,
): GalleryPageView & { position: number | null } {
  return {
    position,
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
const arrival = (order: string, id = 1, day = DAY, position = 11) => ({ position, day, item: story(id, order) });

describe('an approved item placed in cached gallery pages from its live message', () => {
  it('goes where the day puts it, and the last item of a full page moves on to the next', () => {
    const page = placeArrival(first, pageOf(1, ['b', 'd', 'f'], 5), arrival('c'));
    expect(orders(page)).toEqual(['b', 'c', 'd']);
    expect(page).toMatchObject({ total: 6, pageCount: 2, page: 1, day: DAY, position: 10 });
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
    expect(placeArrival(first, page, { position: 11, day: DAY, item: page.items[1]! })).toBe(page);
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

  // The page answer is read at its X-Log-Position; an arrival at or before it is already counted in
  // its total, even when the item itself sits on a later page (decision 140).
  it('leaves a page read at or after the message alone: its total already counts the item', () => {
    const full = pageOf(1, ['b', 'd', 'f'], 6, 3, 11);
    expect(placeArrival(first, full, arrival('x', 1, DAY, 11))).toBe(full);
    expect(placeArrival(first, full, arrival('c', 1, DAY, 9))).toBe(full);
    const deck = pageOf(1, ['b', 'd', 'f'], 3, 3, 11);
    expect(placeArrival(['gallery', 'reveal'], deck, arrival('e', 1, DAY, 11))).toBe(deck);
    expect(placeArrival(first, full, arrival('x', 1, DAY, 12))).toMatchObject({ total: 7, position: 11 });
  });
});

const removal = (order: string, id: number, position = 11, day = DAY) => ({
  position,
  kind: 'story' as const,
  id,
  day,
  order,
});
const ids = (data: unknown) => (data as GalleryPageView).items.map((item) => item.id);

describe('an item that left the gallery taken out of cached gallery pages from its live message', () => {
  it('leaves the last page one shorter and counts one fewer', () => {
    const last = pageOf(2, ['g', 'h'], 5);
    const page = placeRemoval(second, last, removal('g', 120));
    expect(orders(page)).toEqual(['h']);
    expect(page).toMatchObject({ total: 4, pageCount: 2, page: 2, position: 10 });
  });

  it("takes the next page's first item up into a full page it leaves, from the next page as cached", () => {
    const page = placeRemoval(first, pageOf(1, ['b', 'd', 'f'], 5), removal('d', 111), pageOf(2, ['g', 'h'], 5));
    expect(orders(page)).toEqual(['b', 'f', 'g']);
    expect(page).toMatchObject({ total: 4, pageCount: 2 });
  });

  it('gives a later page’s first item to the page before when the item left an earlier page', () => {
    const page = placeRemoval(second, pageOf(2, ['g', 'h'], 5), removal('c', 999));
    expect(orders(page)).toEqual(['h']);
    expect(page).toMatchObject({ total: 4 });
  });

  it('only counts one fewer on a page the item sorted after', () => {
    const full = pageOf(1, ['b', 'd', 'f'], 5);
    const page = placeRemoval(first, full, removal('x', 999)) as GalleryPageView;
    expect(page.items).toBe(full.items);
    expect(page).toMatchObject({ total: 4, pageCount: 2 });
  });

  it('shrinks the reveal deck, and leaves it as it is when the item is not in it', () => {
    const deck = pageOf(1, ['b', 'd', 'f'], 3);
    const page = placeRemoval(['gallery', 'reveal'], deck, removal('d', 111));
    expect(orders(page)).toEqual(['b', 'f']);
    expect(page).toMatchObject({ total: 2, pageSize: 2, pageCount: 1 });
    expect(placeRemoval(['gallery', 'reveal'], deck, removal('c', 999))).toMatchObject({ total: 3 });
  });

  it('takes out every item of an erasure, which are several messages at one position', () => {
    const once = placeRemoval(second, pageOf(2, ['g', 'h', 'i'], 6), removal('g', 120, 12));
    expect(ids(placeRemoval(second, once, removal('i', 122, 12)))).toEqual([121]);
  });

  it('leaves a page read at or after the message alone: the item is already gone from it and its total', () => {
    const page = pageOf(1, ['b', 'd', 'f'], 4, 3, 11);
    expect(placeRemoval(first, page, removal('x', 999, 11))).toBe(page);
    expect(placeRemoval(first, page, removal('d', 111, 8), pageOf(2, ['g'], 4, 3, 8))).toBe(page);
  });

  it('cannot tell a search, another day, a full page whose next is not cached or is newer, or a page that disagrees', () => {
    const full = pageOf(1, ['b', 'd', 'f'], 5);
    expect(placeRemoval(first, full, removal('d', 111))).toBe(UNPLACEABLE);
    expect(placeRemoval(first, full, removal('d', 111), pageOf(2, ['g', 'h'], 4, 3, 11))).toBe(UNPLACEABLE);
    expect(placeRemoval(['gallery', { page: 1, q: 'sea' }], full, removal('d', 111))).toBe(UNPLACEABLE);
    expect(placeRemoval(first, full, removal('d', 111, 11, '2026-11-27'))).toBe(UNPLACEABLE);
    // sorts among the page's items, or before page 1's first, yet is not there
    expect(placeRemoval(first, full, removal('c', 999))).toBe(UNPLACEABLE);
    expect(placeRemoval(first, full, removal('a', 999))).toBe(UNPLACEABLE);
    expect(placeRemoval(first, undefined, removal('d', 111))).toBe(UNPLACEABLE);
  });

  it('leaves every other query alone', () => {
    const data = { id: 1 };
    expect(placeRemoval(['stories', 1], data, removal('a', 1))).toBe(data);
    expect(ids(placeRemoval(second, pageOf(2, ['g', 'h'], 5), removal('h', 121)))).toEqual([120]);
  });
});
