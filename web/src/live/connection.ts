// The only module that imports socket.io-client (STYLE.md: one wrapper per outside library).
import { useEffect, useRef, useSyncExternalStore } from 'react';
import { io, type Socket } from 'socket.io-client';
import type { QueryClient } from '@tanstack/react-query';
import { LIVE_EVENTS, type HandshakeAuth, type ServerToClientEvents } from '../../../contract/live.ts';
import { getSessionToken } from '../lib/session.ts';
import { LiveSequence, type LiveMessage } from './sequence.ts';
import { LiveCache } from './cache.ts';
import type { Comment } from '../queries/comments.ts';
import type { FullGalleryItem, GalleryKind } from '../queries/gallery.ts';
import { storyAuthor } from '../queries/stories.ts';
import { toast } from '../components/Toaster.tsx';

type ClientSocket = Socket<ServerToClientEvents<FullGalleryItem, Comment>, Record<string, never>>;

/** After the server closes the connection (a failed welcome, a restart), come back after this long. */
const COME_BACK_MS = [250, 1000, 3000, 5000];

/** How long a newly arrived item stays marked as new in the gallery. */
export const NEW_MARK_MS = 6000;

/** A tiny external store for React's useSyncExternalStore. */
function store<T>(initial: T) {
  let value = initial;
  const listeners = new Set<() => void>();
  return {
    get: () => value,
    set(next: T) {
      value = next;
      for (const listener of listeners) listener();
    },
    subscribe(listener: () => void) {
      listeners.add(listener);
      return () => void listeners.delete(listener);
    },
  };
}

// How many are viewing right now (the `presence` event); null while unknown or disconnected.
const online = store<number | null>(null);

export function useOnlineCount(): number | null {
  return useSyncExternalStore(online.subscribe, online.get);
}

// Items that arrived live a moment ago, as 'kind:id'.
const newItems = store<ReadonlySet<string>>(new Set());
const itemName = (kind: GalleryKind, id: number) => `${kind}:${id}`;

function markNew(kind: GalleryKind, id: number, on: boolean) {
  const key = itemName(kind, id);
  if (newItems.get().has(key) === on) return;
  const next = new Set(newItems.get());
  if (on) next.add(key);
  else next.delete(key);
  newItems.set(next);
}

/** True for a few seconds after the item arrived live (a ring and a 'New' badge on its card). */
export function useIsNew(kind: GalleryKind, id: number): boolean {
  return useSyncExternalStore(newItems.subscribe, () => newItems.get().has(itemName(kind, id)));
}

// Screens that react to messages themselves (the reveal slideshow), after the cache has been updated.
const messageListeners = new Set<(message: LiveMessage) => void>();

/** Calls `listener` with every live message as it is applied, in order, exactly once. */
export function useLiveMessages(listener: (message: LiveMessage) => void): void {
  const latest = useRef(listener);
  useEffect(() => {
    latest.current = listener;
  });
  useEffect(() => {
    const forward = (message: LiveMessage) => latest.current(message);
    messageListeners.add(forward);
    return () => void messageListeners.delete(forward);
  }, []);
}

/** 'New artwork by Sam Painter'; the admin panel and the slideshow announce arrivals their own way. */
function announceArrival(item: FullGalleryItem) {
  if (/^\/(admin|reveal)/.test(window.location.pathname)) return;
  const what = item.kind === 'media' ? item.mediaType : item.kind;
  const by = item.kind === 'story' ? storyAuthor(item) : item.artistName;
  const title = item.title?.trim();
  toast({
    title: `New ${what} by ${by}`,
    description: title ? `"${title}" is now in the gallery.` : 'Just added to the gallery.',
  });
}

interface LiveDebug {
  connected: boolean;
  lastPosition: number | undefined;
  batches: number;
  resyncs: number;
  applied: Array<{ position: number; event: string }>;
}

declare global {
  interface Window {
    /** Only with `?debug` (or in development): what the live connection has applied, for tests. */
    __tributeLive?: LiveDebug;
  }
}

/**
 * Opens the live-update socket and keeps TanStack Query in step with it.
 * Returns a function that closes the socket (on logout or when the gate comes back).
 */
export function connectRealtime(queryClient: QueryClient): () => void {
  const debug: LiveDebug | undefined =
    import.meta.env.DEV || new URLSearchParams(window.location.search).has('debug')
      ? (window.__tributeLive = { connected: false, lastPosition: undefined, batches: 0, resyncs: 0, applied: [] })
      : undefined;
  const timers = new Set<ReturnType<typeof setTimeout>>();
  const cache = new LiveCache(queryClient);

  const apply = (message: LiveMessage) => {
    cache.apply(message);
    if (message.event === 'gallery:item-added') {
      const { kind, item } = message.payload;
      markNew(kind, item.id, true);
      const timer = setTimeout(() => {
        timers.delete(timer);
        markNew(kind, item.id, false);
      }, NEW_MARK_MS);
      timers.add(timer);
      announceArrival(item);
    } else if (message.event === 'gallery:item-removed') {
      markNew(message.payload.kind, message.payload.id, false);
    }
    for (const listener of messageListeners) listener(message);
    if (debug) {
      debug.lastPosition = message.payload.position;
      debug.applied.push({ position: message.payload.position, event: message.event });
    }
  };
  const refetchAll = () => void queryClient.invalidateQueries();
  // A gap: reconnect, and the server's batch brings what was missed since the last applied position.
  const resync = () => {
    if (debug) debug.resyncs += 1;
    socket.disconnect();
    socket.connect();
  };
  const sequence = new LiveSequence({ apply, refetchAll, resync });

  // Whether the current attempt sent `since`; one without it refetches once the server says where it stands.
  let sentSince = false;
  const socket: ClientSocket = io({
    withCredentials: true,
    // Re-read on every (re)connect: the token may change, and `since` asks for what was missed.
    auth: (callback) => {
      const token = getSessionToken();
      const since = sequence.connecting();
      sentSince = since !== undefined;
      const auth: HandshakeAuth = { ...(token ? { token } : {}), ...(sentSince ? { since } : {}) };
      callback(auth as Record<string, unknown>);
    },
  });

  for (const event of LIVE_EVENTS) {
    socket.on(event, (payload: LiveMessage['payload']) => sequence.receive({ event, payload } as LiveMessage));
  }
  socket.on('sync:batch', (batch) => {
    comeBack = 0;
    sequence.batch(batch);
    // Without a `since` (a first connection), this batch only tells where the log stands: whatever
    // happened between loading the page's data and joining the live rooms is fetched again.
    if (!sentSince) void queryClient.invalidateQueries({ refetchType: 'active' });
    if (debug) {
      debug.batches += 1;
      debug.lastPosition = sequence.lastPosition;
    }
  });
  socket.on('presence', ({ online: count }) => online.set(count));
  socket.on('connect', () => {
    if (debug) debug.connected = true;
  });
  // socket.io does not reconnect after the server closed the connection; a visitor's screen should.
  // A session that has ended fails the next handshake, and then this stops.
  let comeBack = 0;
  socket.on('disconnect', (reason) => {
    online.set(null);
    if (debug) debug.connected = false;
    if (reason !== 'io server disconnect') return;
    const timer = setTimeout(
      () => {
        timers.delete(timer);
        socket.connect();
      },
      COME_BACK_MS[Math.min(comeBack++, COME_BACK_MS.length - 1)],
    );
    timers.add(timer);
  });

  // A device that goes offline has a dead socket long before the heartbeat notices; close it now and
  // come back with `since` as soon as the network does.
  const goneOffline = () => socket.disconnect();
  const backOnline = () => socket.connect();
  window.addEventListener('offline', goneOffline);
  window.addEventListener('online', backOnline);

  return () => {
    window.removeEventListener('offline', goneOffline);
    window.removeEventListener('online', backOnline);
    for (const timer of timers) clearTimeout(timer);
    cache.close();
    online.set(null);
    socket.removeAllListeners();
    socket.disconnect();
  };
}
