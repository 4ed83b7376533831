/**
 * A tab left open across a redeploy asks for script files the new build no longer has. Loading the
 * page again fetches the new build; once per missing file (kept in session storage under a key of our
 * own), so that a file that is really missing cannot loop. Vite reports every file its loader could
 * not fetch (`vite:preloadError`), a route's own file included, before anything tries to draw it.
 */
const reloadKey = (message: string) => `tg:reload:${message}`;

const messageOf = (error: unknown) => (error instanceof Error ? error.message : String(error));

/** Whether an error is a script or style file that could not be loaded (the browsers' own wordings). */
export function isStaleBuild(error: unknown): boolean {
  return /dynamically imported module|Importing a module script failed|Unable to preload CSS/i.test(messageOf(error));
}

/** Loads the page again, unless it was loaded again for this same file before. True when it reloads. */
export function reloadForNewBuild(error: unknown): boolean {
  const key = reloadKey(messageOf(error));
  try {
    if (sessionStorage.getItem(key)) return false;
    sessionStorage.setItem(key, '1');
  } catch {
    return false; // no session storage: the button on the screen reloads instead, never a loop
  }
  window.location.reload();
  return true;
}

/** Reloads once for a file of an older build the moment it is found missing (decision 097). */
export function reloadOnMissingFiles(): void {
  window.addEventListener('vite:preloadError', (event) => reloadForNewBuild(event.payload));
}
