// The only module that imports socket.io-client (STYLE.md: one wrapper per outside library).
import { useEffect, useRef } from 'react';
import { io } from 'socket.io-client';
import type { QueryClient } from '@tanstack/react-query';
import { getSessionToken } from '../lib/session.ts';
import { createStore, useStore } from '../lib/store.ts';
import type { MineChanged } from '../../../contract/mine.ts';
import type { LiveMessage } from './sequence.ts';
import { startLiveClient } from './client.ts';
import { storyAuthor } from '../queries/stories.ts';
import { ITEM_KINDS } from '../queries/itemKinds.ts';
import { toast } from '../components/Toaster.tsx';
import { LIVE_SOCKET_OPTIONS } from '../../../contract/liveSocket.ts';
import type { ItemView, Kind } from '../../../contract/views.ts';

/** How long a newly arrived item stays marked as new in the gallery. */
export const NEW_MARK_MS = 6000;

// How many are viewing right now (the `presence` event); null while unknown or disconnected.
const online = createStore<number | null>(null);

export function useOnlineCount(): number | null {
  return useStore(online);
}

// Whether the server is catching up (the worker behind the log): a banner says new posts may wait.
const catchingUp = createStore(false);

export function useCatchingUp(): boolean {
  return useStore(catchingUp);
}

/**
 * The live connection as a screen shows it: 'live', 'reconnecting' (the server went away: the socket
 * tries again), 'offline' (the device has no network), or 'idle' before the first connection and
 * after the socket is closed on purpose.
 */
export type ConnectionState = 'idle' | 'live' | 'reconnecting' | 'offline';
const connection = createStore<ConnectionState>('idle');
let reconnectNow: (() => void) | undefined;

export function useConnection(): ConnectionState {
  return useStore(connection);
}

/** Asks the socket to try again at once instead of at its next backoff step. */
export function retryConnection(): void {
  reconnectNow?.();
}

// Items that arrived live a moment ago, as 'kind:id'.
const newItems = createStore<ReadonlySet<string>>(new Set());
const itemName = (kind: Kind, id: number) => `${kind}:${id}`;

function markNew(kind: Kind, id: number, on: boolean) {
  const key = itemName(kind, id);
  if (newItems.get().has(key) === on) return;
  const next = new Set(newItems.get());
  if (on) next.add(key);
  else next.delete(key);
  newItems.set(next);
}

/** True for a few seconds after the item arrived live (a ring and a 'New' badge on its card). */
export function useIsNew(kind: Kind, id: number): boolean {
  return useStore(newItems, (items) => items.has(itemName(kind, id)));
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
function announceArrival(item: ItemView) {
  if (/^\/(admin|reveal)/.test(window.location.pathname)) return;
  const what = item.kind === 'media' ? item.mediaType : item.kind;
  const by = item.kind === 'story' ? storyAuthor(item) : item.artistName;
  const title = item.title?.trim();
  toast({
    title: `New ${what} by ${by}`,
    description: title ? `"${title}" is now in the gallery.` : 'Just added to the gallery.',
  });
}

const MINE_NEWS = {
  approved: (noun: string) => ({ title: `Your ${noun} is in the gallery!`, description: 'Everyone can see it now.' }),
  rejected: (noun: string) => ({
    title: `Your ${noun} will not be shown`,
    description: 'The organisers decided not to include it.',
  }),
  withdrawn: (noun: string) => ({ title: `Your ${noun} was withdrawn`, description: 'It has been taken back.' }),
};

/** "Your artwork is in the gallery!": the sender hears what became of their item, wherever they are. */
function announceMine(change: MineChanged) {
  if (change.status === 'pending') return;
  toast(MINE_NEWS[change.status](ITEM_KINDS[change.kind].sender));
}

interface LiveDebug {
  connected: boolean;
  lastPosition: number | undefined;
  batches: number;
  resyncs: number;
  applied: Array<{ position: number; event: string }>;
  /** How many of the page's queries are on their way now. */
  fetching: () => number;
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
      ? (window.__tributeLive = {
          connected: false,
          lastPosition: undefined,
          batches: 0,
          resyncs: 0,
          applied: [],
          fetching: () => queryClient.isFetching(),
        })
      : undefined;
  const timers = new Set<ReturnType<typeof setTimeout>>();

  const applied = (message: LiveMessage) => {
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

  const live = startLiveClient((auth) => io({ ...LIVE_SOCKET_OPTIONS, auth }), queryClient, getSessionToken, {
    applied,
    batch: (_batch, _since) => {
      if (!debug) return;
      debug.batches += 1;
      debug.lastPosition = live.sequence.lastPosition;
    },
    resync: () => {
      if (debug) debug.resyncs += 1;
    },
    presence: (count) => online.set(count),
    mine: announceMine,
    catchingUp: (behind) => catchingUp.set(behind),
    connected: (connected) => {
      if (debug) debug.connected = connected;
      if (!connected) online.set(null);
      connection.set(connected ? 'live' : navigator.onLine ? 'reconnecting' : 'offline');
    },
  });
  const { socket } = live;
  // a server away at the first connection, or refusing it, is reconnecting too
  socket.on('connect_error', () => connection.set(navigator.onLine ? 'reconnecting' : 'offline'));

  // A device that goes offline has a dead socket long before the heartbeat notices; close it now and
  // come back with `since` as soon as the network does.
  const goneOffline = () => {
    socket.disconnect();
    connection.set('offline');
  };
  const backOnline = () => {
    connection.set('reconnecting');
    socket.connect();
  };
  reconnectNow = () => {
    if (socket.connected) return;
    socket.disconnect();
    backOnline();
  };
  window.addEventListener('offline', goneOffline);
  window.addEventListener('online', backOnline);

  return () => {
    window.removeEventListener('offline', goneOffline);
    window.removeEventListener('online', backOnline);
    for (const timer of timers) clearTimeout(timer);
    reconnectNow = undefined;
    live.close();
    connection.set('idle');
    online.set(null);
    catchingUp.set(false);
  };
}
