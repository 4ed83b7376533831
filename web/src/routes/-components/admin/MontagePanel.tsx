import { useQuery } from '@tanstack/react-query';
import { serverMessageOf } from '../../../lib/api.ts';
import { montageQueryOptions, useStartMontage, type MontageStatus } from '../../../queries/montage.ts';

const messages = (n: number) => `${n} video ${n === 1 ? 'message' : 'messages'}`;
const minutes = (seconds: number) => `${Math.floor(seconds / 60)} min ${Math.round(seconds % 60)} s`;

function describe(status: MontageStatus): string {
  switch (status.state) {
    case 'none':
      return `${messages(status.approvedVideos).replace('video', 'approved video')}. Join them into one film for the reveal.`;
    case 'running':
      return `Making the film of ${messages(status.clips)}...`;
    case 'ready':
      return `Ready: ${messages(status.clips)}, ${minutes(status.duration ?? 0)}.`;
    case 'stale':
      return `The approved videos have changed since the film was made (${status.approvedVideos} now). Make it again to include them.`;
    case 'failed':
      return 'The film could not be made. Try again; if it fails again, the server log says why.';
  }
}

/** The montage (CONTRACT §12): start it, follow it, watch it. */
export function MontagePanel() {
  const montage = useQuery(montageQueryOptions());
  const start = useStartMontage();
  const status = montage.data;
  if (!status) return null;
  const canStart = status.state !== 'running' && status.state !== 'ready' && status.approvedVideos > 0;
  const percent = Math.round(status.progress * 100);
  return (
    <section aria-labelledby="montage-heading" className="card mt-10 p-5 sm:p-6">
      <h2 id="montage-heading" className="text-lg font-semibold text-stone-800 dark:text-stone-100">
        The film of everyone&apos;s messages
      </h2>
      <p role="status" className="mt-1 text-sm text-stone-600 dark:text-stone-400">
        {describe(status)}
      </p>
      {status.state === 'running' && (
        <div
          role="progressbar"
          aria-label="Montage progress"
          aria-valuemin={0}
          aria-valuemax={100}
          aria-valuenow={percent}
          className="mt-4 h-2.5 overflow-hidden rounded-full bg-amber-100 dark:bg-stone-800"
        >
          <div
            className="h-full rounded-full bg-gradient-to-r from-amber-500 to-rose-500 transition-[width]"
            style={{ width: `${Math.max(3, percent)}%` }}
          />
        </div>
      )}
      {status.state === 'ready' && (
        // oxlint-disable-next-line jsx-a11y/media-has-caption -- the film joins the clips' pictures and sound, not their tracks
        <video
          src="/api/montage.mp4"
          controls
          preload="metadata"
          aria-label="The montage"
          className="mt-4 max-h-96 w-full rounded-xl bg-black"
        />
      )}
      {canStart && (
        <button
          type="button"
          disabled={start.isPending}
          onClick={() => start.mutate()}
          className="btn-primary mt-4 text-sm"
        >
          {status.state === 'none' ? 'Make the montage' : 'Make it again'}
        </button>
      )}
      {start.isError && (
        <p role="alert" className="mt-3 text-sm font-semibold text-rose-700 dark:text-rose-400">
          {serverMessageOf(start.error) ?? 'The montage could not be started.'}
        </p>
      )}
    </section>
  );
}
