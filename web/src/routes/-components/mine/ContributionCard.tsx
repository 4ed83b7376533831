import { useState } from 'react';
import { Link } from '@tanstack/react-router';
import type { ContributionStatus } from '../../../../../contract/mine.ts';
import { BookIcon, FilmIcon, PaletteIcon } from '../../../components/icons.tsx';
import { toast } from '../../../components/Toaster.tsx';
import { formatDate } from '../../../lib/format.ts';
import { contributionName, kindNoun, useWithdrawContribution, type Contribution } from '../../../queries/mine.ts';
import { EditContribution } from './EditContribution.tsx';
import { WithdrawDialog } from './WithdrawDialog.tsx';

const STATUS: Record<ContributionStatus, { label: string; className: string; when: string }> = {
  pending: {
    label: 'Waiting for approval',
    className: 'bg-amber-100 text-amber-900 dark:bg-amber-950 dark:text-amber-200',
    when: 'Sent',
  },
  approved: {
    label: 'In the gallery',
    className: 'bg-emerald-100 text-emerald-900 dark:bg-emerald-950 dark:text-emerald-200',
    when: 'Approved',
  },
  rejected: {
    label: 'Not shown',
    className: 'bg-stone-200 text-stone-800 dark:bg-stone-800 dark:text-stone-200',
    when: 'Decided',
  },
  withdrawn: {
    label: 'Withdrawn',
    className: 'bg-rose-100 text-rose-900 dark:bg-rose-950 dark:text-rose-200',
    when: 'Withdrawn',
  },
};

const KIND_BADGE = {
  artwork: {
    label: 'Artwork',
    Icon: PaletteIcon,
    className: 'bg-amber-100 text-amber-800 dark:bg-amber-950 dark:text-amber-300',
  },
  story: {
    label: 'Story',
    Icon: BookIcon,
    className: 'bg-emerald-100 text-emerald-800 dark:bg-emerald-950 dark:text-emerald-300',
  },
  media: { label: 'Media', Icon: FilmIcon, className: 'bg-sky-100 text-sky-800 dark:bg-sky-950 dark:text-sky-300' },
} as const;

/** Where the gallery shows an approved item. */
function DetailLink({ item }: { item: Contribution }) {
  const className = 'text-sm font-medium text-amber-700 underline-offset-4 hover:underline dark:text-amber-300';
  const params = { id: item.id };
  if (item.kind === 'artwork')
    return (
      <Link to="/artwork/$id" params={params} className={className}>
        See it in the gallery
      </Link>
    );
  if (item.kind === 'story')
    return (
      <Link to="/story/$id" params={params} className={className}>
        See it in the gallery
      </Link>
    );
  return (
    <Link to="/media/$id" params={params} className={className}>
      See it in the gallery
    </Link>
  );
}

/** One thing this browser sent: what it is, where it stands, and what its sender may still do. */
export function ContributionCard({ item }: { item: Contribution }) {
  const [editing, setEditing] = useState(false);
  const [confirming, setConfirming] = useState(false);
  const status = STATUS[item.status];
  const badge = KIND_BADGE[item.kind];
  const name = contributionName(item);
  const withdraw = useWithdrawContribution({
    onSuccess: () => {
      setConfirming(false);
      setEditing(false);
      toast({ title: 'Withdrawn', description: `Your ${kindNoun(item.kind)} has been taken back.` });
    },
    onError: (error) => {
      setConfirming(false);
      toast({ title: 'Could not withdraw', description: error.message, variant: 'destructive' });
    },
  });
  const withdrawn = item.status === 'withdrawn';
  return (
    <article aria-label={name} className={`card flex flex-col gap-4 p-5 sm:flex-row ${withdrawn ? 'opacity-75' : ''}`}>
      {item.thumbnailUrl ? (
        <img
          src={item.thumbnailUrl}
          alt=""
          loading="lazy"
          className="h-40 w-full shrink-0 rounded-xl object-cover sm:h-24 sm:w-24"
        />
      ) : (
        <span
          aria-hidden="true"
          className={`hidden h-24 w-24 shrink-0 items-center justify-center rounded-xl sm:flex ${badge.className}`}
        >
          <badge.Icon className="h-8 w-8" />
        </span>
      )}
      <div className="min-w-0 flex-1">
        <div className="flex flex-wrap items-center gap-2">
          <span
            className={`inline-flex items-center gap-1.5 rounded-full px-2.5 py-0.5 text-xs font-semibold ${badge.className}`}
          >
            <badge.Icon className="h-3.5 w-3.5" /> {badge.label}
          </span>
          <span className={`rounded-full px-2.5 py-0.5 text-xs font-semibold ${status.className}`}>{status.label}</span>
        </div>
        <h2 className="mt-2 truncate font-display text-lg font-semibold text-stone-900 dark:text-amber-50">{name}</h2>
        {item.text?.content && !editing && (
          <p className="mt-1 line-clamp-2 text-sm whitespace-pre-line text-stone-600 italic dark:text-stone-400">
            {item.text.content}
          </p>
        )}
        <p className="mt-2 text-sm text-stone-500 dark:text-stone-400">
          Sent {formatDate(item.submittedAt)}
          {item.decidedAt && (
            <>
              {' · '}
              {status.when} {formatDate(item.decidedAt)}
            </>
          )}
        </p>
        {editing && item.text && <EditContribution item={item} text={item.text} onDone={() => setEditing(false)} />}
        {!editing && (
          <div className="mt-4 flex flex-wrap items-center gap-3">
            {item.status === 'pending' && (
              <button type="button" className="btn-secondary px-4 py-1.5 text-sm" onClick={() => setEditing(true)}>
                Edit
              </button>
            )}
            {!withdrawn && (
              <button
                type="button"
                className="inline-flex items-center rounded-full px-4 py-1.5 text-sm font-medium text-rose-700 transition hover:bg-rose-50 dark:text-rose-300 dark:hover:bg-rose-950/60"
                onClick={() => setConfirming(true)}
              >
                Withdraw
              </button>
            )}
            {item.status === 'approved' && <DetailLink item={item} />}
          </div>
        )}
      </div>
      {confirming && (
        <WithdrawDialog
          item={item}
          name={name}
          busy={withdraw.isPending}
          onCancel={() => setConfirming(false)}
          onConfirm={() => withdraw.mutate({ kind: item.kind, id: item.id })}
        />
      )}
    </article>
  );
}
