import { useEffect } from 'react';
import { createStore } from '../lib/store.ts';

/**
 * How many murals are on the page (the mural page, the show's mural slide): while there is one, the
 * page's live connection is in the mural's room and is sent its strokes; otherwise it is not
 * (decision 116). client.ts says so on every connection and whenever it changes.
 */
export const muralsOnPage = createStore(0);

/** The page shows a mural while the calling component is mounted. */
export function useWatchMural(): void {
  useEffect(() => {
    muralsOnPage.set(muralsOnPage.get() + 1);
    return () => muralsOnPage.set(muralsOnPage.get() - 1);
  }, []);
}
