import { useEffect } from 'react';
import { useSession } from './session.ts';

const SITE = 'Tribute Gallery';

/** Each screen's name, as its header link or heading says it. */
const TITLES: [RegExp, string][] = [
  [/^\/$/, SITE],
  [/^\/gallery$/, 'Gallery'],
  [/^\/submit$/, 'Share Artwork'],
  [/^\/create$/, 'Begin Creating'],
  [/^\/submit-media$/, 'Add Media'],
  [/^\/submit-story$/, 'Tell a Story'],
  [/^\/admin$/, 'Admin Panel'],
  [/^\/reveal$/, 'Reveal'],
  [/^\/mural$/, 'Mural'],
  [/^\/artwork\/[^/]+$/, 'Artwork'],
  [/^\/story\/[^/]+$/, 'Story'],
  [/^\/media\/[^/]+$/, 'Media'],
  [/^\/health-check$/, 'System Status'],
];

export function pageTitle(pathname: string, signedIn: boolean): string {
  if (!signedIn && pathname !== '/health-check') return `Access Required · ${SITE}`;
  const name = TITLES.find(([pattern]) => pattern.test(pathname))?.[1] ?? 'Page Not Found';
  return name === SITE ? SITE : `${name} · ${SITE}`;
}

/** Keeps document.title in step with the screen, so tabs, history and screen readers name it. */
export function usePageTitle(pathname: string): void {
  const { signedIn } = useSession();
  useEffect(() => {
    document.title = pageTitle(pathname, signedIn);
  }, [pathname, signedIn]);
}
