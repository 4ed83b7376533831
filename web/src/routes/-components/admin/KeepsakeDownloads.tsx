import { useState } from 'react';
import { getSessionToken } from '../../../lib/session.ts';

type State =
  { phase: 'idle' } | { phase: 'loading'; bytes: number } | { phase: 'done' } | { phase: 'failed'; message: string };

const DOWNLOADS = [
  { path: '/api/admin/keepsake', label: 'Download the keepsake (zip)', file: 'keepsake.zip' },
  { path: '/api/admin/keepsake.pdf', label: 'Download the book (PDF)', file: 'keepsake.pdf' },
] as const;

const megabytes = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MB`;

/**
 * The keepsake's two downloads (CONTRACT §10) with their progress: the server streams them, so the
 * size is not known before the end; the page counts what has arrived and saves the file when it is whole.
 */
function Download({ path, label, file }: (typeof DOWNLOADS)[number]) {
  const [state, setState] = useState<State>({ phase: 'idle' });
  async function start() {
    setState({ phase: 'loading', bytes: 0 });
    try {
      const token = getSessionToken();
      const response = await fetch(path, {
        credentials: 'include',
        headers: token ? { 'x-session-token': token } : {},
      });
      if (!response.ok || !response.body) throw new Error(`${response.status}: ${response.statusText}`);
      const parts: Uint8Array[] = [];
      let bytes = 0;
      const reader = response.body.getReader();
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        parts.push(value);
        bytes += value.length;
        setState({ phase: 'loading', bytes });
      }
      const type = response.headers.get('content-type') ?? 'application/octet-stream';
      const url = URL.createObjectURL(new Blob(parts as BlobPart[], { type }));
      const link = document.createElement('a');
      link.href = url;
      link.download = file;
      link.click();
      setTimeout(() => URL.revokeObjectURL(url), 60_000);
      setState({ phase: 'done' });
    } catch (error) {
      setState({ phase: 'failed', message: error instanceof Error ? error.message : String(error) });
    }
  }
  return (
    <div className="flex flex-wrap items-center gap-3">
      <button type="button" className="btn-secondary" onClick={() => void start()} disabled={state.phase === 'loading'}>
        {label}
      </button>
      <span role="status" className="text-sm text-stone-600 dark:text-stone-400">
        {state.phase === 'loading' && `Preparing… ${megabytes(state.bytes)} received`}
        {state.phase === 'done' && 'Saved'}
        {state.phase === 'failed' && `Failed: ${state.message}`}
      </span>
    </div>
  );
}

export function KeepsakeDownloads() {
  return (
    <section aria-labelledby="keepsake-heading" className="card mt-10 p-6">
      <h2 id="keepsake-heading" className="font-display text-xl font-semibold text-stone-900 dark:text-amber-50">
        The keepsake
      </h2>
      <p className="mt-1 mb-4 text-sm text-stone-600 dark:text-stone-400">
        Everything the gallery shows, to give to the person it honours: a page that opens from disk with no server, its
        log and a page that checks it, or a printable book.
      </p>
      <div className="flex flex-col gap-3">
        {DOWNLOADS.map((d) => (
          <Download key={d.path} {...d} />
        ))}
      </div>
    </section>
  );
}
