import { useEffect, useState } from 'react';
import { api } from '../lib/api.ts';
import type { GalleryKind } from './gallery.ts';
import { itemPath } from './itemKinds.ts';

/**
 * Counts this visitor's view of an item with the server (first-party: nothing goes to an analytics
 * service) and returns how many visitors have opened it; null until known. A visitor counts once.
 */
export function useViewCount(kind: GalleryKind, id: number): number | null {
  const [views, setViews] = useState<number | null>(null);
  useEffect(() => {
    let current = true;
    setViews(null);
    api<{ viewCount: number }>(`${itemPath(kind, id)}/views`, { method: 'POST' }).then(
      ({ viewCount }) => {
        if (current) setViews(viewCount);
      },
      () => {},
    );
    return () => {
      current = false;
    };
  }, [kind, id]);
  return views;
}

export const viewsText = (n: number) => (n === 1 ? '1 view' : `${n} views`);
