// The only module that imports socket.io-client (STYLE.md: one wrapper per outside library).
import { useSyncExternalStore } from 'react';
import { io, type Socket } from 'socket.io-client';
import type { QueryClient } from '@tanstack/react-query';
import { getSessionToken } from './session.ts';
import { patchGalleryItem, type GalleryKind } from '../queries/gallery.ts';
import { adminKeys } from '../queries/admin.ts';
import { artworkKeys } from '../queries/artworks.ts';

/** Server → client events (CONTRACT §4). Every payload carries the log cursor `position`. */
interface ServerEvents {
  'gallery:item-added': (payload: { position: number; kind: GalleryKind; item: unknown }) => void;
  'gallery:item-removed': (payload: { position: number; kind: GalleryKind; id: number }) => void;
  'likes:changed': (payload: { position: number; kind: GalleryKind; id: number; likeCount: number }) => void;
  'comments:added': (payload: { position: number; kind: GalleryKind; id: number; commentCount: number }) => void;
  'comments:removed': (payload: { position: number; kind: GalleryKind; id: number; commentCount: number }) => void;
  'admin:queue-changed': (payload: { position: number }) => void;
  presence: (payload: { online: number }) => void;
}

type ClientSocket = Socket<ServerEvents, Record<string, never>>;

// How many are viewing right now (the `presence` event); null while unknown or disconnected.
let online: number | null = null;
const presenceListeners = new Set<() => void>();

function setOnline(count: number | null) {
  online = count;
  for (const listener of presenceListeners) listener();
}

export function useOnlineCount(): number | null {
  return useSyncExternalStore(
    (listener) => {
      presenceListeners.add(listener);
      return () => presenceListeners.delete(listener);
    },
    () => online,
  );
}

/**
 * Opens the live-update socket and keeps TanStack Query in step with it.
 * Returns a function that closes the socket (on logout or when the gate comes back).
 */
export function connectRealtime(queryClient: QueryClient): () => void {
  let lastPosition: number | undefined;
  const seen = (position: number) => {
    if (lastPosition === undefined || position > lastPosition) lastPosition = position;
  };

  const socket: ClientSocket = io({
    withCredentials: true,
    // Re-read on every (re)connect: the token may change, and `since` replays what was missed.
    auth: (callback) => {
      const token = getSessionToken();
      callback({ ...(token ? { token } : {}), ...(lastPosition === undefined ? {} : { since: lastPosition }) });
    },
  });

  const refreshGallery = () => void queryClient.invalidateQueries({ queryKey: ['gallery'] });

  socket.on('gallery:item-added', ({ position }) => {
    seen(position);
    refreshGallery();
  });
  socket.on('gallery:item-removed', ({ position, kind, id }) => {
    seen(position);
    refreshGallery();
    if (kind === 'artwork') void queryClient.invalidateQueries({ queryKey: artworkKeys.detail(id) });
  });
  socket.on('likes:changed', ({ position, kind, id, likeCount }) => {
    seen(position);
    patchGalleryItem(queryClient, kind, id, { likeCount });
  });
  const onComments = ({ position, kind, id, commentCount }: { position: number; kind: GalleryKind; id: number; commentCount: number }) => {
    seen(position);
    patchGalleryItem(queryClient, kind, id, { commentCount });
  };
  socket.on('comments:added', onComments);
  socket.on('comments:removed', onComments);
  socket.on('admin:queue-changed', ({ position }) => {
    seen(position);
    void queryClient.invalidateQueries({ queryKey: adminKeys.all });
  });

  socket.on('presence', ({ online: count }) => setOnline(count));
  socket.on('disconnect', () => setOnline(null));

  return () => {
    setOnline(null);
    socket.removeAllListeners();
    socket.disconnect();
  };
}
