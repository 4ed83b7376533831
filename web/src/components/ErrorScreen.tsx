import { useEffect } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { Link, useRouter, type ErrorComponentProps } from '@tanstack/react-router';
import { isStaleBuild, reloadForNewBuild } from '../lib/staleBuild.ts';

/**
 * What a screen shows when it fails to draw, instead of a blank page: the rest of the app (header,
 * live updates, what was sent) is untouched. A screen that failed because the site was updated while
 * the tab was open loads the new version once by itself.
 */
export function ErrorScreen({ error, reset }: ErrorComponentProps) {
  const router = useRouter();
  const stale = isStaleBuild(error);
  useEffect(() => {
    if (stale) reloadForNewBuild(error);
  }, [stale, error]);
  const queryClient = useQueryClient();
  // a new build: load it; otherwise what the screen drew from is read again (the same answer would fail the same way)
  const tryAgain = () => {
    if (stale) return window.location.reload();
    void queryClient.resetQueries().finally(() => {
      reset();
      void router.invalidate();
    });
  };
  return (
    <section role="alert" className="mx-auto flex max-w-md flex-col items-center gap-4 px-6 py-20 text-center">
      <h1 className="font-display text-2xl font-bold text-stone-900 dark:text-amber-50">
        {stale ? 'The gallery was updated' : 'Something went wrong'}
      </h1>
      <p className="text-stone-600 dark:text-stone-400">Try again, or go back to the gallery.</p>
      <div className="flex flex-wrap justify-center gap-3">
        <button type="button" className="btn-primary" onClick={tryAgain}>
          Try again
        </button>
        <Link to="/gallery" className="btn-secondary" onClick={reset}>
          Go to the gallery
        </Link>
      </div>
    </section>
  );
}
