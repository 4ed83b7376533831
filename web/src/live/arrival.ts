import type { QueryKey } from '@tanstack/react-query';
import { galleryKeys, type GalleryParams } from '../queries/gallery.ts';
import { galleryOrder, type GalleryPageView } from '../../../contract/views.ts';
import type { LivePayloads } from '../../../contract/live.ts';

type Arrival = Pick<LivePayloads['gallery:item-added'], 'day' | 'item'>;

/** A cached answer the arrival cannot be placed in from the message alone: it is loaded again. */
export const UNPLACEABLE = Symbol('unplaceable');

/**
 * A gallery page (or the reveal deck, the whole gallery as one page) with a newly approved item put
 * where a reload of that page would show it: pages list the day's order (`galleryOrder`), so the item
 * goes before the first item that follows it, and the page's last item moves on to the next page.
 * Pure. Returns the data unchanged when the item is already there, and UNPLACEABLE when the message
 * cannot tell: a search (the item may not match it), a page of another day, or an item that sorts
 * before a later page's first item (that page shifts by one item it does not hold). Decision 133.
 */
export function placeArrival(key: QueryKey, data: unknown, arrival: Arrival): unknown {
  if (key[0] !== galleryKeys.all[0]) return data;
  const page = data as GalleryPageView | undefined;
  if (!page?.items) return UNPLACEABLE;
  const whole = key[1] === 'reveal';
  if (!whole && (key[1] as GalleryParams | undefined)?.q) return UNPLACEABLE;
  if (page.day !== arrival.day) return UNPLACEABLE;
  const { item } = arrival;
  if (page.items.some((other) => other.kind === item.kind && other.id === item.id)) return data;

  const at = page.items.findIndex((other) => galleryOrder(item, other) < 0);
  const index = at === -1 ? page.items.length : at;
  const total = page.total + 1;
  if (whole) {
    const items = [...page.items.slice(0, index), item, ...page.items.slice(index)];
    return { ...page, items, total, pageSize: items.length };
  }
  if (index === 0 && page.page > 1) return UNPLACEABLE;
  const full = page.items.length >= page.pageSize;
  // an item after a full page's last belongs on a later page: this one only counts it
  const items =
    index === page.items.length && full
      ? page.items
      : [...page.items.slice(0, index), item, ...page.items.slice(index)].slice(0, page.pageSize);
  return { ...page, items, total, pageCount: Math.ceil(total / page.pageSize) };
}
