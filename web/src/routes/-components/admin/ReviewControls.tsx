import { useId } from 'react';
import { useDraft } from '../../../lib/drafts.ts';
import { useReview } from '../../../queries/admin.ts';
import { ITEM_KINDS } from '../../../queries/itemKinds.ts';
import { formatDate } from '../../../lib/format.ts';
import { toast } from '../../../components/Toaster.tsx';
import { HistoryLink } from '../audit/HistoryLink.tsx';
import type { Kind } from '../../../../../contract/views.ts';

interface ReviewControlsProps {
  kind: Kind;
  id: number;
  /** How the item is named in the toast. */
  label: string;
  adminNotes: string | null | undefined;
}

const DECISIONS = [
  { status: 'approved', label: 'Approve', key: 'a', tone: 'bg-emerald-700 hover:bg-emerald-800' },
  { status: 'rejected', label: 'Reject', key: 'r', tone: 'bg-rose-600 hover:bg-rose-700' },
] as const;

/** Admin notes with Approve and Reject, the same for every kind (spec §4 Submission lifecycle). */
export function ReviewControls({ kind, id, label, adminNotes }: ReviewControlsProps) {
  const notesId = useId();
  // the notes outlive a reload or an expired admin session until the decision is sent
  const [notes, setNotes] = useDraft(`notes.${kind}.${id}`, adminNotes ?? '');
  const { noun, Noun } = ITEM_KINDS[kind];

  const review = useReview(kind, id, {
    onSuccess: (_result, status) => {
      setNotes('');
      toast({ title: `${Noun} updated`, description: `"${label}" was ${status}.` });
    },
    onError: (error) => {
      toast({ title: 'Error', description: `Failed to update ${noun}: ${error.message}`, variant: 'destructive' });
    },
  });

  return (
    <>
      <div>
        <label htmlFor={notesId} className="field-label">
          Admin notes
        </label>
        <textarea
          id={notesId}
          rows={2}
          value={notes}
          onChange={(event) => setNotes(event.target.value)}
          className="field"
        />
      </div>
      <div className="flex gap-3">
        {DECISIONS.map(({ status, label, key, tone }) => (
          <button
            key={status}
            type="button"
            disabled={review.isPending}
            aria-keyshortcuts={key}
            onClick={() => review.mutate({ status, notes: notes.trim() })}
            className={`inline-flex items-center rounded-full px-5 py-2 font-semibold text-white transition disabled:opacity-50 ${tone}`}
          >
            {label}
          </button>
        ))}
        <HistoryLink kind={kind} id={id} />
      </div>
    </>
  );
}

/** Who sent it, their address and when, for every pending card. */
export function Submitter({
  by,
  email,
  createdAt,
}: {
  by: string;
  email: string | null | undefined;
  createdAt: string | undefined;
}) {
  return (
    <>
      <p className="text-stone-700 dark:text-stone-300">By {by}</p>
      {email && <p className="text-sm break-all text-stone-500 dark:text-stone-400">{email}</p>}
      {createdAt && <p className="text-sm text-stone-500 dark:text-stone-400">{formatDate(createdAt)}</p>}
    </>
  );
}
