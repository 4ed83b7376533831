import { Modal } from '../../../components/Modal.tsx';
import { kindNoun, type Contribution } from '../../../queries/mine.ts';

interface WithdrawDialogProps {
  item: Contribution;
  name: string;
  busy: boolean;
  onCancel: () => void;
  onConfirm: () => void;
}

/** Asks before taking an item back: a withdrawal cannot be undone (its words and files go). */
export function WithdrawDialog({ item, name, busy, onCancel, onConfirm }: WithdrawDialogProps) {
  const noun = kindNoun(item.kind);
  const where =
    item.status === 'approved'
      ? 'It leaves the gallery and every screen showing it, the big screen included.'
      : item.status === 'pending'
        ? 'It leaves the queue before anyone decides on it.'
        : 'Its words and files are removed.';
  return (
    <Modal title={`Withdraw your ${noun}?`}>
      <p className="mt-4 text-stone-700 dark:text-stone-300">
        <span className="font-semibold">“{name}”</span> will be taken back. {where} This cannot be undone.
      </p>
      <div className="mt-6 flex flex-col-reverse gap-3 sm:flex-row sm:justify-end">
        <button type="button" className="btn-secondary" onClick={onCancel} disabled={busy} data-autofocus>
          Keep it
        </button>
        <button
          type="button"
          className="inline-flex items-center justify-center rounded-full bg-rose-600 px-6 py-2.5 font-semibold text-white shadow-md transition hover:bg-rose-700 disabled:opacity-50"
          onClick={onConfirm}
          disabled={busy}
        >
          {busy ? 'Withdrawing…' : `Withdraw ${noun}`}
        </button>
      </div>
    </Modal>
  );
}
