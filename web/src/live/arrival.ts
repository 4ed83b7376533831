import type { QueryKey } from '@tanstack/react-query';
import { galleryKeys, type CachedGalleryPage, type GalleryParams } from '../queries/gallery.ts';
import { galleryOrder, type GalleryItemView } from '../../../contract/views.ts';
import type { LivePayloads } from '../../../contract/live.ts';

type Arrival = Pick<LivePayloads['gallery:item-added'], 'position' | 'day' | 'item'>;
type Removal = Pick<LivePayloads['gallery:item-removed'], 'position' | 'kind' | 'id' | 'day' | 'order'>;

/** A cached answer a message cannot be placed in from the message alone: it is loaded again. */
export const UNPLACEABLE = Symbol('unplaceable');

/** A cached gallery answer a message may change, and how: the reveal deck, a page, or a search. */
type Target =
  { page: CachedGalleryPage; as: 'deck' | 'page' | 'search' } | { page: undefined; as: 'unloaded' } | { as: 'other' };

/**
 * What a gallery message meets in one cached answer. An answer read at or after the message's
 * position (its `X-Log-Position`) already shows it and is left as it is (decision 140); else the
 * message is placed. The page keeps the answer's position: an erasure is several messages at one
 * position, each placed in turn.
 */
function targetOf(key: QueryKey, data: unknown, position: number): Target | 'already' {
  if (key[0] !== galleryKeys.all[0]) return { as: 'other' };
  const page = data as CachedGalleryPage | undefined;
  if (!page?.items) return { page: undefined, as: 'unloaded' };
  if (position <= (page.position ?? -Infinity)) return 'already';
  if (key[1] === 'reveal') return { page, as: 'deck' };
  return { page, as: (key[1] as GalleryParams | undefined)?.q ? 'search' : 'page' };
}

const same = (a: Pick<GalleryItemView, 'kind' | 'id'>, b: Pick<GalleryItemView, 'kind' | 'id'>) =>
  a.kind === b.kind && a.id === b.id;
const counted = (page: CachedGalleryPage, items: GalleryItemView[], total: number) => ({
  ...page,
  items,
  total,
  pageCount: Math.ceil(total / page.pageSize),
});

/**
 * A gallery page (or the reveal deck, the whole gallery as one page) with a newly approved item put
 * where a reload of that page would show it: pages list the day's order (`galleryOrder`), so the item
 * goes before the first item that follows it, and the page's last item moves on to the next page.
 * Pure. Returns the data unchanged when the page already shows the message (read at or after it, or
 * holding the item), and UNPLACEABLE when the message cannot tell: a search (the item may not match
 * it), a page of another day, or an item that sorts before a later page's first item (that page
 * shifts by one item it does not hold). Decisions 133, 140.
 */
export function placeArrival(key: QueryKey, data: unknown, arrival: Arrival): unknown {
  const target = targetOf(key, data, arrival.position);
  if (target === 'already') return data;
  if (target.as === 'other') return data;
  if (target.as === 'unloaded' || target.as === 'search') return UNPLACEABLE;
  const { page } = target;
  if (page.day !== arrival.day) return UNPLACEABLE;
  const { item } = arrival;
  if (page.items.some((other) => same(other, item))) return data;

  const found = page.items.findIndex((other) => galleryOrder(item, other) < 0);
  const index = found === -1 ? page.items.length : found;
  const total = page.total + 1;
  const placed = [...page.items.slice(0, index), item, ...page.items.slice(index)];
  if (target.as === 'deck') {
    return { ...page, items: placed, total, pageSize: placed.length };
  }
  if (index === 0 && page.page > 1) return UNPLACEABLE;
  // an item after a full page's last belongs on a later page: this one only counts it
  const full = page.items.length >= page.pageSize;
  const items = index === page.items.length && full ? page.items : placed.slice(0, page.pageSize);
  return counted(page, items, total);
}

/**
 * A gallery page (or the reveal deck) with an item that left the gallery taken out, as a reload
 * would show it: the page loses the item and counts one fewer, and the next page's first item moves
 * up into it (`next`: the cached next page, as it stood before the message). A page that only
 * follows the item (it sorted before the page's first) gives its first item to the page before and
 * takes the next page's first. A page the item sorted after only counts one fewer. Pure, with the
 * same guard as an arrival (decision 140); UNPLACEABLE when the message cannot tell: a search, a page
 * of another day, a page whose next one is not cached, or a page that disagrees with the message
 * (the item sorts among its items but is not there).
 */
export function placeRemoval(key: QueryKey, data: unknown, removal: Removal, next?: unknown): unknown {
  const target = targetOf(key, data, removal.position);
  if (target === 'already') return data;
  if (target.as === 'other') return data;
  if (target.as === 'unloaded' || target.as === 'search') return UNPLACEABLE;
  const { page } = target;
  const gone = { kind: removal.kind, id: removal.id, order: removal.order };
  const index = page.items.findIndex((item) => same(item, gone));
  if (target.as === 'deck') {
    if (index === -1) return data;
    const items = page.items.filter((_, i) => i !== index);
    return { ...page, items, total: items.length, pageSize: items.length };
  }
  if (page.day !== removal.day || page.items.length === 0) return UNPLACEABLE;
  const total = page.total - 1;
  const last = page.page >= page.pageCount;
  const first = page.items[0]!;
  const after = galleryOrder(gone, page.items.at(-1)!) > 0;
  if (index === -1 && after) return last ? UNPLACEABLE : counted(page, page.items, total);
  if (index === -1 && (galleryOrder(gone, first) > 0 || page.page === 1)) return UNPLACEABLE;
  // the item was on this page, or on an earlier one (this page's first moves up there)
  const kept = page.items.filter((_, i) => i !== (index === -1 ? 0 : index));
  if (last) return counted(page, kept, total);
  const comesUp = firstOf(next, page, removal);
  return comesUp ? counted(page, [...kept, comesUp], total) : UNPLACEABLE;
}

/** The item that moves up from the next page: its first, if that page is cached as it was before the removal. */
function firstOf(next: unknown, page: CachedGalleryPage, removal: Removal): GalleryItemView | undefined {
  const after = next as CachedGalleryPage | undefined;
  const comesUp = after?.items?.[0];
  if (!after || !comesUp || after.day !== page.day || after.page !== page.page + 1) return undefined;
  if ((after.position ?? Infinity) >= removal.position) return undefined;
  if (same(comesUp, removal) || galleryOrder(comesUp, page.items.at(-1)!) <= 0) return undefined;
  return comesUp;
}
