import { useEffect } from 'react';
import { createStore, useStore } from '../lib/store.ts';

/**
 * Following the show (CONTRACT §7): a `/reveal` screen follows it, and says so on the page's live
 * connection every time it connects (`show:follow`, client.ts); the server counts those sockets
 * across every API process and sends the total with the presence count. One page, one connection,
 * so the page's own "I follow" is one value.
 */
export const followsShow = createStore(false);

/** How many screens follow the show, across every API process; null while unknown or disconnected. */
export const showFollowers = createStore<number | null>(null);

/** The page follows the show while the calling component is mounted (`/reveal`). */
export function useFollowShow(): void {
  useEffect(() => {
    followsShow.set(true);
    return () => followsShow.set(false);
  }, []);
}

/** How many screens follow the show (the presenter shows it). */
export function useShowFollowers(): number | null {
  return useStore(showFollowers);
}
