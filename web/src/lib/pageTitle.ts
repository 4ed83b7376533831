import { useEffect } from 'react';
import { useSession } from './session.ts';
import { createStore, useStore } from './store.ts';

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
  [/^\/admin\/show$/, 'Presenter'],
  [/^\/audit$/, 'Audit'],
  [/^\/reveal$/, 'Reveal'],
  [/^\/mural$/, 'Mural'],
  [/^\/mine$/, 'Your contributions'],
  [/^\/artwork\/[^/]+$/, 'Artwork'],
  [/^\/story\/[^/]+$/, 'Story'],
  [/^\/media\/[^/]+$/, 'Media'],
  [/^\/health-check$/, 'System Status'],
];

/** The tab's title; `waiting` (items for the admin to review) leads it in brackets, as mail tabs count. */
export function pageTitle(pathname: string, signedIn: boolean, waiting = 0): string {
  if (!signedIn && pathname !== '/health-check') return `Access Required · ${SITE}`;
  const name = TITLES.find(([pattern]) => pattern.test(pathname))?.[1] ?? 'Page Not Found';
  const title = name === SITE ? SITE : `${name} · ${SITE}`;
  return waiting > 0 ? `(${waiting}) ${title}` : title;
}

/** How many items wait for the admin's review, as the admin's screens report it (0 elsewhere). */
const waitingForReview = createStore(0);

/**
 * An admin screen's count of what waits for review, shown in the tab's title while it is open. The
 * admin screens report it, so the guests' screens never load the admin's queries.
 */
export function useWaitingInTitle(count: number | undefined): void {
  useEffect(() => {
    waitingForReview.set(count ?? 0);
  }, [count]);
  useEffect(() => () => waitingForReview.set(0), []);
}

/**
 * Keeps document.title in step with the screen, so tabs, history and screen readers name it. On the
 * admin's screens the tab and the installed app's badge count what waits for review, live.
 */
export function usePageTitle(pathname: string): void {
  const { signedIn } = useSession();
  const waiting = useStore(waitingForReview);
  useEffect(() => {
    document.title = pageTitle(pathname, signedIn, waiting);
  }, [pathname, signedIn, waiting]);
  useEffect(() => {
    if (!('setAppBadge' in navigator)) return;
    const badge = waiting > 0 ? navigator.setAppBadge(waiting) : navigator.clearAppBadge();
    badge.catch(() => {
      // not an installed app, or not allowed: the tab's title still counts
    });
  }, [waiting]);
}
