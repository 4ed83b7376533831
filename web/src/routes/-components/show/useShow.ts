import { useQuery } from '@tanstack/react-query';
import { getSession } from '../../../lib/session.ts';
import { api } from '../../../lib/api.ts';
import { itemKey, itemPath } from '../../../queries/itemKinds.ts';
import { isReactable, showQueryOptions, type ShowAnswer, type ShowItemRef } from '../../../queries/show.ts';
import type { ItemView } from '../../../../../contract/views.ts';

/**
 * The show as this screen knows it: fetched once (with the log position it reflects), then moved by
 * `show:changed` (web/src/live/cache.ts). A screen that joins or reloads mid-show starts where it stands.
 */
export function useShow(): ShowAnswer | undefined {
  return useQuery({ ...showQueryOptions(), enabled: getSession().signedIn }).data;
}

/** A show is running or paused: screens follow the presenter rather than their own slideshow. */
export const isLive = (show: ShowAnswer | undefined): show is ShowAnswer & { current: ShowItemRef } =>
  show !== undefined && show.state !== 'idle' && show.current !== null;

/** The submission the show points at: from the deck when it holds it, else fetched on its own (none for the mural). */
export function useShowItem(
  showing: ShowItemRef | null,
  deck: readonly ItemView[] | undefined,
): { item: ItemView | undefined; missing: boolean } {
  const ref = showing && isReactable(showing) ? showing : null;
  const inDeck = ref ? deck?.find((i) => i.kind === ref.kind && i.id === ref.id) : undefined;
  const fetched = useQuery({
    queryKey: ref ? itemKey(ref.kind, ref.id) : ['show-none'],
    queryFn: ({ signal }) => api<ItemView>(itemPath(ref!.kind, ref!.id), { signal }),
    enabled: !!ref && !inDeck && deck !== undefined,
    retry: false,
  });
  return { item: inDeck ?? fetched.data, missing: fetched.isError };
}
