import { useSyncExternalStore } from 'react';
import { MOBILE_QUERY } from '../../../drawing/tools.ts';

function subscribe(onChange: () => void) {
  const query = window.matchMedia(MOBILE_QUERY);
  query.addEventListener('change', onChange);
  return () => query.removeEventListener('change', onChange);
}

/** True below the 768 px breakpoint, following the window as it resizes. */
export function useIsMobile(): boolean {
  return useSyncExternalStore(subscribe, () => window.matchMedia(MOBILE_QUERY).matches);
}
