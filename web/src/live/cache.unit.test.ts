import { QueryClient, QueryObserver } from '@tanstack/react-query';
import { afterEach, describe, expect, it } from 'vitest';
import { LiveCache } from './cache.ts';
import type { LiveMessage } from './sequence.ts';

/** A query function whose answers the test hands out one at a time, in order. */
function answers<T>() {
  const pending: Array<(value: T) => void> = [];
  return {
    queryFn: () => new Promise<T>((resolve) => pending.push(resolve)),
    get asked() {
      return pending.length;
    },
    answer: (index: number, value: T) => pending[index]!(value),
  };
}

const settled = () => new Promise((resolve) => setTimeout(resolve, 10));

let stop: Array<() => void> = [];
afterEach(() => {
  for (const close of stop) close();
  stop = [];
});

function setUp<T>(queryKey: readonly unknown[]) {
  const queryClient = new QueryClient({ defaultOptions: { queries: { staleTime: 30_000, retry: false } } });
  const cache = new LiveCache(queryClient);
  const server = answers<T>();
  const observer = new QueryObserver(queryClient, { queryKey, queryFn: server.queryFn });
  const unsubscribe = observer.subscribe(() => {});
  stop.push(
    unsubscribe,
    () => cache.close(),
    () => queryClient.clear(),
  );
  return { queryClient, cache, server, data: () => queryClient.getQueryData<T>(queryKey) };
}

// TanStack Query does not restart a query's first fetch when it is invalidated: the answer already on
// its way, from before the change, is kept as if it were fresh (it cancels and refetches only a
// query that has data). A screen that loaded while the change happened would then miss it for good.
describe('a live change that lands while a query is loading for the first time', () => {
  it('is fetched again after the first answer, so the screen is not left on the state before the change', async () => {
    const { cache, server, data } = setUp<{ state: string }>(['show']);
    await settled();
    expect(server.asked).toBe(1);

    // the first connection's welcome: whatever happened before joining is fetched again
    cache.invalidate({ refetchType: 'active' });
    server.answer(0, { state: 'idle' });
    await settled();
    expect(server.asked).toBe(2);
    server.answer(1, { state: 'running' });
    await settled();
    expect(data()).toEqual({ state: 'running' });
  });

  it('holds for an arrival in the gallery as for a welcome', async () => {
    const { cache, server, data } = setUp<{ items: Array<{ kind: string; id: number }> }>(['gallery', 'page', 1]);
    await settled();
    const arrival = {
      event: 'gallery:item-added',
      payload: { position: 5, after: 4, kind: 'artwork', item: { kind: 'artwork', id: 9 } },
    } as unknown as LiveMessage;
    cache.apply(arrival);
    server.answer(0, { items: [] });
    await settled();
    expect(server.asked).toBe(2);
    server.answer(1, { items: [{ kind: 'artwork', id: 9 }] });
    await settled();
    expect(data()).toEqual({ items: [{ kind: 'artwork', id: 9 }] });
  });

  it('costs nothing more when the query already had data (TanStack then restarts the fetch itself)', async () => {
    const { cache, server, data } = setUp<{ state: string }>(['show']);
    await settled();
    server.answer(0, { state: 'idle' });
    await settled();
    cache.invalidate();
    await settled();
    expect(server.asked).toBe(2);
    cache.invalidate();
    await settled();
    expect(server.asked).toBe(3);
    server.answer(2, { state: 'running' });
    await settled();
    expect(server.asked).toBe(3);
    expect(data()).toEqual({ state: 'running' });
  });
});

// Issue 21: reaction totals and the admin queue's counts are totals like the like counts, and an
// answer that left before a live change must not put the old ones back.
describe('an answer that left before a live total', () => {
  it('does not undo the queue counts', async () => {
    type Queue = { pending: { artworks: number; stories: number; media: number }; archived: number };
    const { cache, server, data } = setUp<Queue>(['admin', 'queue']);
    await settled();
    server.answer(0, { pending: { artworks: 1, stories: 0, media: 0 }, archived: 0 });
    await settled();
    cache.invalidate({ queryKey: ['admin', 'queue'], exact: true });
    await settled();
    expect(server.asked).toBe(2);
    cache.apply({
      event: 'admin:queue-changed',
      payload: { position: 8, after: 7, kind: 'artwork', pending: { artworks: 2, stories: 0, media: 0 }, archived: 0 },
    });
    expect(data()?.pending.artworks).toBe(2);
    server.answer(1, { pending: { artworks: 1, stories: 0, media: 0 }, archived: 0 });
    await settled();
    expect(data()?.pending.artworks).toBe(2);
  });

  it('does not undo the reaction totals', async () => {
    const { cache, server, data } = setUp<{ id: number; reactions: Record<string, number> }>(['artworks', 9]);
    await settled();
    server.answer(0, { id: 9, reactions: {} });
    await settled();
    cache.invalidate({ queryKey: ['artworks', 9], exact: true });
    await settled();
    expect(server.asked).toBe(2);
    cache.apply({
      event: 'reactions:burst',
      payload: { position: 8, after: 7, kind: 'artwork', id: 9, counts: { '👏': 3 }, totals: { '👏': 3 } },
    });
    server.answer(1, { id: 9, reactions: {} });
    await settled();
    expect(data()?.reactions).toEqual({ '👏': 3 });
  });
});

// Issue 28: the arrival carries the item as a guest's page shows it; the page is not asked again.
describe('an arrival in a gallery page that has loaded', () => {
  it('is placed from the message, without asking the server again', async () => {
    const story = (id: number, order: string) => ({ kind: 'story', id, order, title: `Story ${id}` });
    const page = (items: Array<{ id: number }>) => ({
      day: '2026-11-26',
      items,
      total: items.length,
      page: 1,
      pageSize: 20,
    });
    const { cache, server, data } = setUp<{ items: Array<{ id: number }>; total: number }>([
      'gallery',
      { page: 1, q: '' },
    ]);
    await settled();
    server.answer(0, page([story(1, 'a'), story(2, 'c')]));
    await settled();
    cache.apply({
      event: 'gallery:item-added',
      payload: { position: 5, after: 4, kind: 'story', day: '2026-11-26', item: story(3, 'b') },
    } as unknown as LiveMessage);
    await settled();
    expect(server.asked).toBe(1);
    expect(data()?.items.map((item) => item.id)).toEqual([1, 3, 2]);
    expect(data()?.total).toBe(3);
  });
});

// A track's change is laid on the cached item at once; an answer that was already on its way, read
// before the change, must not undo it (captions.e2e: the detail page's welcome refetch landed after
// the message and the Transcript never showed).
describe('a new track that lands while the item is being fetched again', () => {
  it('is not undone by the answer from before it: the item loads again', async () => {
    type Media = { id: number; captionsUrl: string | null };
    const { cache, server, data } = setUp<Media>(['media', 7]);
    await settled();
    server.answer(0, { id: 7, captionsUrl: null });
    await settled();

    // the welcome's refetch leaves; the track is added and its message arrives before the answer
    cache.invalidate({ refetchType: 'active' });
    await settled();
    expect(server.asked).toBe(2);
    cache.apply({
      event: 'media:captions-changed',
      payload: { position: 9, kind: 'media', id: 7, captionsUrl: '/api/media/7/captions' },
    } as unknown as LiveMessage);
    expect(data()?.captionsUrl).toBe('/api/media/7/captions');
    server.answer(1, { id: 7, captionsUrl: null });
    await settled();
    expect(server.asked).toBe(3);
    server.answer(2, { id: 7, captionsUrl: '/api/media/7/captions' });
    await settled();
    expect(data()?.captionsUrl).toBe('/api/media/7/captions');
  });
});
