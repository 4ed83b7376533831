import type { InvalidateQueryFilters, Query, QueryClient, QueryKey } from '@tanstack/react-query';
import { adminKeys } from '../queries/adminKeys.ts';
import { galleryKeys, type GalleryParams } from '../queries/gallery.ts';
import { ITEM_KINDS, itemKey } from '../queries/itemKinds.ts';
import { showKeys, type ShowAnswer } from '../queries/show.ts';
import { everyTrackWords, trackWordsOf, withCaptions } from './captions.ts';
import type { LiveMessage } from './sequence.ts';
import { placeArrival, placeRemoval, UNPLACEABLE } from './arrival.ts';
import type { LivePayloads } from '../../../contract/live.ts';
import type { CommentView as Comment, ItemView, Kind, QueueCounts } from '../../../contract/views.ts';

type PatchMessage = Extract<
  LiveMessage,
  { event: 'likes:changed' | 'comments:added' | 'comments:removed' | 'reactions:burst' | 'admin:queue-changed' }
>;
type CountMessage = Extract<PatchMessage, { event: 'likes:changed' | 'comments:added' | 'comments:removed' }>;

const PATCHES = new Set<string>([
  'likes:changed',
  'comments:added',
  'comments:removed',
  'reactions:burst',
  'admin:queue-changed',
]);
const isPatch = (message: LiveMessage): message is PatchMessage => PATCHES.has(message.event);

/** An item in a cached answer, as far as a live message's counters patch it. */
type Counted = Pick<ItemView, 'id'> & Partial<Pick<ItemView, 'kind' | 'likeCount' | 'commentCount'>>;

function countersOf(message: PatchMessage): Partial<Pick<Counted, 'likeCount' | 'commentCount'>> & {
  reactions?: unknown;
} {
  if (message.event === 'reactions:burst') return { reactions: message.payload.totals };
  return message.event === 'likes:changed'
    ? { likeCount: message.payload.likeCount }
    : { commentCount: (message as CountMessage & { payload: { commentCount: number } }).payload.commentCount };
}

const sameItem = (key: QueryKey, kind: Kind, id: number) => key[0] === ITEM_KINDS[kind].key && key[1] === id;

/**
 * One live patch on one query's data, whatever the query: a gallery page (or the reveal deck), an
 * item, its like state or its comments, the admin queue's counts. Pure, so the same patch can be
 * laid again on a late answer: totals (likes, comments, reactions, the queue) are never undone by
 * an answer that left before them.
 */
export function patchData(key: QueryKey, data: unknown, message: PatchMessage): unknown {
  if (data === undefined || data === null) return data;
  if (message.event === 'admin:queue-changed') {
    if (key[0] !== adminKeys.queue[0] || key[1] !== adminKeys.queue[1] || key.length !== 2) return data;
    const { pending, archived } = message.payload;
    return { ...(data as object), pending, archived };
  }
  const { kind, id } = message.payload;
  const counters = countersOf(message);
  if (key[0] === galleryKeys.all[0]) {
    const page = data as { items?: Counted[] };
    if (!page.items?.some((item) => item.kind === kind && item.id === id)) return data;
    return {
      ...page,
      items: page.items.map((item) => (item.kind === kind && item.id === id ? { ...item, ...counters } : item)),
    };
  }
  if (!sameItem(key, kind, id)) return data;
  if (key.length === 2) return { ...(data as object), ...counters };
  if (key[2] === 'likes' && message.event === 'likes:changed') {
    return { ...(data as object), count: message.payload.likeCount };
  }
  if (key[2] === 'comments' && Array.isArray(data)) {
    const list = data as Comment[];
    if (message.event === 'comments:added') {
      const { comment } = message.payload;
      return list.some((c) => c.id === comment.id) ? list : [...list, comment];
    }
    if (message.event === 'comments:removed') return list.filter((c) => c.id !== message.payload.commentId);
  }
  return data;
}

/** Patches every cached query the message touches, through the same keys the loaders use. */
function patchCache(queryClient: QueryClient, message: PatchMessage) {
  for (const query of queryClient.getQueryCache().getAll()) {
    const { queryKey } = query;
    const before = query.state.data;
    const after = patchData(queryKey, before, message);
    if (after !== before) queryClient.setQueryData(queryKey, after);
  }
}

/**
 * Keeps the query cache in step with live messages, and keeps late answers from undoing them.
 *
 * A request that was already on its way when a like or comment arrived may answer with the state
 * before it, and its answer would overwrite the patch. So every patch is kept for a while with a
 * number from a counter, every fetch notes the counter as it starts, and when a fetch succeeds the
 * patches that arrived after it started are laid again on its data. A patch laid on data that
 * already had it changes nothing; data newer than a patch is put right by the newer message, which
 * is still to come (docs/decisions/011).
 */
export class LiveCache {
  readonly #queryClient: QueryClient;
  readonly #recent: Array<{ clock: number; message: PatchMessage }> = [];
  readonly #fetchStartedAt = new Map<string, number>();
  /** Queries made stale while their first fetch was on its way: fetched again once it answers. */
  readonly #staleOnArrival = new Set<string>();
  #clock = 0;
  readonly #unsubscribe: () => void;

  static readonly KEEP = 1000;

  constructor(queryClient: QueryClient) {
    this.#queryClient = queryClient;
    this.#unsubscribe = queryClient.getQueryCache().subscribe((event) => {
      const hash = event.query.queryHash;
      if (event.type === 'removed') {
        this.#fetchStartedAt.delete(hash);
        this.#staleOnArrival.delete(hash);
      }
      if (event.type !== 'updated') return;
      if (event.action.type === 'fetch') this.#fetchStartedAt.set(hash, this.#clock);
      else if (event.action.type === 'success' && !event.action.manual) {
        this.#settle(event.query);
        if (this.#staleOnArrival.delete(hash)) this.invalidate({ queryKey: event.query.queryKey, exact: true });
      } else if (event.action.type === 'error') {
        this.#fetchStartedAt.delete(hash);
        this.#staleOnArrival.delete(hash);
      }
    });
  }

  close() {
    this.#unsubscribe();
  }

  /**
   * Marks queries stale and refetches the active ones, like `invalidateQueries`, and also when a
   * query is loading for the first time. TanStack Query restarts an in-flight fetch only for a query
   * that has data; a first fetch is kept, and its answer, from before the change, would pass for
   * fresh. Such a query is fetched again as soon as that answer is in.
   */
  invalidate(filters: InvalidateQueryFilters = {}): void {
    for (const query of this.#queryClient.getQueryCache().findAll(filters)) {
      if (query.state.fetchStatus === 'fetching' && query.state.data === undefined) {
        this.#staleOnArrival.add(query.queryHash);
      }
    }
    void this.#queryClient.invalidateQueries(filters);
  }

  apply(message: LiveMessage): void {
    const queryClient = this.#queryClient;
    if (isPatch(message)) {
      this.#recent.push({ clock: ++this.#clock, message });
      if (this.#recent.length > LiveCache.KEEP) this.#recent.shift();
      patchCache(queryClient, message);
    }
    switch (message.event) {
      case 'likes:changed':
      case 'comments:added':
      case 'comments:removed':
      case 'reactions:burst':
        // the floating reactions listen through useLiveMessages; the totals are patched above
        return;
      case 'gallery:item-added': {
        // the message carries the item as a guest's page shows it: placed, not fetched again
        this.#placeArrival(message.payload);
        this.invalidate({ queryKey: itemKey(message.payload.kind, message.payload.item.id), exact: true });
        return;
      }
      case 'gallery:item-removed': {
        // taken out of the cached pages from the message, as an arrival is put in (decision 140)
        const { kind, id } = message.payload;
        this.#placeRemoval(message.payload);
        // An open detail page loads again: a removed item then 404s into its error view.
        this.invalidate({ queryKey: itemKey(kind, id), exact: true });
        return;
      }
      case 'admin:queue-changed': {
        // the counts are patched above (and on a late answer); the lists behind them load again
        if (queryClient.getQueryData(adminKeys.queue) === undefined) {
          const { pending, archived } = message.payload;
          queryClient.setQueryData<QueueCounts>(adminKeys.queue, { pending, archived });
        }
        this.invalidate({
          queryKey: adminKeys.all,
          predicate: (query) => query.queryKey[1] !== adminKeys.queue[1],
        });
        // a pending message's track may have changed at the same address
        if (message.payload.kind === 'media') this.invalidate(everyTrackWords);
        return;
      }
      case 'media:captions-changed': {
        for (const query of queryClient.getQueryCache().getAll()) {
          const before = query.state.data;
          const after = withCaptions(query.queryKey, before, message.payload);
          if (after !== before) queryClient.setQueryData(query.queryKey, after);
          // An answer on its way may have been read before the change and would undo the patch (a
          // track's words are not laid again as counters are): such a query loads again, as a
          // gallery page on its way does. The item's own first load is one of them.
          const theItem = query.queryKey.length === 2 && sameItem(query.queryKey, 'media', message.payload.id);
          if (query.state.fetchStatus !== 'idle' && (after !== before || theItem)) {
            this.invalidate({ queryKey: query.queryKey, exact: true });
          }
        }
        this.invalidate(trackWordsOf(message.payload.id));
        return;
      }
      case 'show:changed': {
        // screens follow at once; what comes next (the presenter's list) is fetched again behind it
        const { position, state, current, index, total } = message.payload;
        queryClient.setQueryData<ShowAnswer>(showKeys.status, (old) =>
          old && old.position > position ? old : { upNext: [], ...old, position, state, current, index, total },
        );
        this.invalidate({ queryKey: showKeys.status, exact: true });
        return;
      }
      case 'mural:stroke-added':
      case 'mural:stroke-removed':
      case 'mural:state':
        // the mural page paints these itself, stroke by stroke, through useLiveMessages (routes/mural.tsx)
        return;
      default: {
        const unreachable: never = message;
        return unreachable;
      }
    }
  }

  /**
   * Puts an approved item into every cached gallery page it belongs on (decision 133). A page being
   * fetched, or one the message cannot place it on (`placeArrival`), loads again instead: an answer
   * on its way may be from before the arrival or after it, and only a fresh one is sure to be right.
   */
  #placeArrival(arrival: LivePayloads['gallery:item-added']) {
    this.#placeInPages((key, data) => placeArrival(key, data, arrival));
  }

  /**
   * Takes an item that left the gallery out of every cached gallery page (decision 140), each page
   * given its next one as it stood before the message, whose first item moves up into it.
   */
  #placeRemoval(removal: LivePayloads['gallery:item-removed']) {
    const before = new Map(
      this.#queryClient
        .getQueryCache()
        .findAll({ queryKey: galleryKeys.all })
        .filter((query) => query.state.fetchStatus === 'idle')
        .map((query) => [query.queryHash, query.state.data]),
    );
    const nextOf = (key: QueryKey) => {
      const params = key[1] as GalleryParams | 'reveal' | undefined;
      if (typeof params !== 'object') return undefined;
      const next = galleryKeys.page({ ...params, page: params.page + 1 });
      return before.get(this.#queryClient.getQueryCache().find({ queryKey: next, exact: true })?.queryHash ?? '');
    };
    this.#placeInPages((key, data) => placeRemoval(key, data, removal, nextOf(key)));
  }

  /** Lays a gallery message on every cached page; one it cannot be laid on, or one on its way, loads again. */
  #placeInPages(place: (key: QueryKey, data: unknown) => unknown) {
    for (const query of this.#queryClient.getQueryCache().findAll({ queryKey: galleryKeys.all })) {
      const before = query.state.data;
      const after = query.state.fetchStatus === 'idle' ? place(query.queryKey, before) : UNPLACEABLE;
      if (after === UNPLACEABLE) this.invalidate({ queryKey: query.queryKey, exact: true });
      else if (after !== before) this.#queryClient.setQueryData(query.queryKey, after);
    }
  }

  /** A fetch came back: lay again the patches that arrived while it was on its way. */
  #settle(query: Query) {
    const startedAt = this.#fetchStartedAt.get(query.queryHash);
    this.#fetchStartedAt.delete(query.queryHash);
    if (startedAt === undefined || startedAt === this.#clock) return;
    const oldest = this.#recent[0]?.clock ?? this.#clock + 1;
    if (startedAt + 1 < oldest) {
      // more arrived meanwhile than is kept: load it again rather than guess
      this.invalidate({ queryKey: query.queryKey, exact: true });
      return;
    }
    let data = query.state.data;
    for (const { clock, message } of this.#recent) {
      if (clock > startedAt) data = patchData(query.queryKey, data, message);
    }
    if (data !== query.state.data) this.#queryClient.setQueryData(query.queryKey, data);
  }
}
