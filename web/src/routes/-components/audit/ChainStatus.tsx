import { useQuery } from '@tanstack/react-query';
import { chainStatusOptions, useVerifyChain } from '../../../queries/audit.ts';
import { formatTime } from './describe.ts';

const short = (hash: string) => `${hash.slice(0, 10)}…${hash.slice(-6)}`;

/** The chain's state: the sealed head, the head anchored outside the database, verify now, export. */
export function ChainStatus() {
  const status = useQuery(chainStatusOptions());
  const verify = useVerifyChain();
  const result = verify.data;
  const s = status.data;

  return (
    <section aria-labelledby="chain-heading" className="card p-5 sm:p-6">
      <div className="flex flex-wrap items-start justify-between gap-4">
        <div>
          <h2 id="chain-heading" className="font-display text-xl font-bold text-stone-900 dark:text-amber-50">
            Hash chain
          </h2>
          <p className="mt-1 text-sm text-stone-600 dark:text-stone-400">
            Every event is chained to the one before it; the head is anchored outside the database.
          </p>
        </div>
        <div className="flex flex-wrap gap-2">
          <button type="button" className="btn-primary" onClick={() => verify.mutate()} disabled={verify.isPending}>
            {verify.isPending ? 'Verifying…' : 'Verify now'}
          </button>
          <a className="btn-secondary" href="/api/admin/events/export" download="tribute-gallery-events.ndjson">
            Download export
          </a>
        </div>
      </div>
      <dl className="mt-5 grid gap-4 text-sm sm:grid-cols-3">
        <div>
          <dt className="text-stone-500 dark:text-stone-400">Sealed up to</dt>
          <dd className="mt-0.5 font-semibold text-stone-900 dark:text-amber-50" data-testid="chain-head">
            {s?.head ? `seq ${s.head.seq}` : s ? 'nothing sealed yet' : '…'}
            {s?.unsealed ? ` (${s.unsealed} waiting)` : ''}
          </dd>
        </div>
        <div>
          <dt className="text-stone-500 dark:text-stone-400">Anchored head</dt>
          <dd className="mt-0.5 font-semibold text-stone-900 dark:text-amber-50">
            {s?.anchor ? (
              <>
                seq {s.anchor.seq} <code className="font-mono text-xs font-normal">{short(s.anchor.hash)}</code>
              </>
            ) : s ? (
              'no anchor yet'
            ) : (
              '…'
            )}
          </dd>
        </div>
        <div>
          <dt className="text-stone-500 dark:text-stone-400">Last anchored</dt>
          <dd className="mt-0.5 font-semibold text-stone-900 dark:text-amber-50">
            {s?.anchor ? formatTime(s.anchor.at) : '—'}
          </dd>
        </div>
      </dl>
      {s && s.quarantined.count > 0 && (
        <div className="mt-4 rounded-xl bg-amber-50 px-4 py-3 text-sm text-amber-950 dark:bg-amber-950/50 dark:text-amber-100">
          <p className="font-semibold">
            {s.quarantined.count === 1
              ? '1 event could not be read and was set aside'
              : `${s.quarantined.count} events could not be read and were set aside`}
          </p>
          <p className="mt-0.5">They stay in the log and its chain, but the gallery does not show them.</p>
          <ul className="mt-2 space-y-1" data-testid="quarantined">
            {s.quarantined.events.map((e) => (
              <li key={e.seq}>
                seq {e.seq} ({e.projections.join(', ')}, {formatTime(e.at)}):{' '}
                <span className="font-mono text-xs">{e.reason}</span>
              </li>
            ))}
          </ul>
        </div>
      )}
      <div role="status" aria-live="polite" className="mt-4 text-sm">
        {result?.ok && (
          <p className="rounded-xl bg-emerald-50 px-4 py-2.5 font-medium text-emerald-900 dark:bg-emerald-950/60 dark:text-emerald-100">
            Verified up to seq {result.head.seq}: {result.checked} links recomputed, head anchored.
          </p>
        )}
        {result && !result.ok && (
          <p className="rounded-xl bg-rose-50 px-4 py-2.5 font-medium text-rose-900 dark:bg-rose-950/60 dark:text-rose-100">
            The chain does not verify at seq {result.firstBadSeq}: {result.reason}.
          </p>
        )}
        {verify.isError && <p className="text-rose-700 dark:text-rose-300">{verify.error.message}</p>}
      </div>
    </section>
  );
}
