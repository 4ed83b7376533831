import { useEffect, useId, useState, type FormEvent } from 'react';
import { useNavigate } from '@tanstack/react-router';
import { useDeleteItem } from '../../../queries/adminKey.ts';
import { ITEM_KINDS } from '../../../queries/itemKinds.ts';
import { ShieldIcon } from '../../../components/icons.tsx';
import { toast } from '../../../components/Toaster.tsx';
import { HistoryLink } from '../audit/HistoryLink.tsx';
import { deletionFailed } from './deletionFailed.ts';
import type { Kind } from '../../../../../contract/views.ts';

interface AdminAccessProps {
  kind: Kind;
  id: number;
  adminKey: string | null;
  onAdminKey: (key: string | null) => void;
}

/** The admin section of a detail page (spec §4): a key prompt, then delete controls. */
export function AdminAccess({ kind, id, adminKey, onAdminKey }: AdminAccessProps) {
  const navigate = useNavigate();
  const keyId = useId();
  const { noun, Noun } = ITEM_KINDS[kind];
  const [prompting, setPrompting] = useState(false);
  const [typed, setTyped] = useState('');
  const [confirming, setConfirming] = useState(false);

  useEffect(() => {
    if (!adminKey) setConfirming(false);
  }, [adminKey]);

  const remove = useDeleteItem(kind, id, {
    onSuccess: async (answer) => {
      toast({ title: 'Success!', description: answer?.message ?? `${Noun} deleted` });
      await navigate({ to: '/gallery' });
    },
    onError: (error) => deletionFailed(error, noun, () => onAdminKey(null)),
  });

  function unlock(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const key = typed.trim();
    if (!key) {
      return toast({
        title: 'Admin key required',
        description: 'Please enter the admin key to confirm deletion',
        variant: 'destructive',
      });
    }
    onAdminKey(key);
    setPrompting(false);
    setTyped('');
    toast({ title: 'Admin Access Granted', description: `You can now delete this ${noun} and its comments.` });
  }

  return (
    <section aria-label="Admin" className="rounded-2xl border border-dashed border-stone-300 p-5 dark:border-stone-700">
      {adminKey ? (
        <div className="flex flex-wrap items-center gap-3">
          <p className="mr-auto flex items-center gap-2 text-sm font-semibold text-stone-700 dark:text-stone-300">
            <ShieldIcon className="h-4 w-4" /> Admin controls unlocked
          </p>
          {confirming ? (
            <>
              <p className="w-full text-sm text-stone-700 sm:w-auto dark:text-stone-300">
                Delete this {noun} permanently?
              </p>
              <button
                type="button"
                onClick={() => remove.mutate(adminKey)}
                disabled={remove.isPending}
                className={dangerButton}
              >
                {remove.isPending ? 'Deleting...' : 'Yes, delete'}
              </button>
              <button type="button" onClick={() => setConfirming(false)} className="btn-secondary px-4 py-1.5 text-sm">
                Cancel
              </button>
            </>
          ) : (
            <>
              <button type="button" onClick={() => setConfirming(true)} className={dangerButton}>
                Delete {Noun}
              </button>
              <button type="button" onClick={() => onAdminKey(null)} className="btn-secondary px-4 py-1.5 text-sm">
                Lock
              </button>
            </>
          )}
        </div>
      ) : prompting ? (
        <form onSubmit={unlock} noValidate className="flex flex-wrap items-end gap-3">
          <div className="min-w-0 flex-1 basis-56">
            <label htmlFor={keyId} className="field-label">
              Admin key
            </label>
            <input
              id={keyId}
              type="password"
              autoComplete="off"
              // oxlint-disable-next-line jsx-a11y/no-autofocus -- opened by the admin's own click, to type the key
              autoFocus
              value={typed}
              onChange={(event) => setTyped(event.target.value)}
              className="field"
            />
          </div>
          <button type="submit" className="btn-primary">
            Unlock
          </button>
          <button type="button" onClick={() => setPrompting(false)} className="btn-secondary">
            Cancel
          </button>
        </form>
      ) : (
        <button type="button" onClick={() => setPrompting(true)} className="btn-secondary px-4 py-1.5 text-sm">
          <ShieldIcon className="h-4 w-4" /> Admin Access
        </button>
      )}
      <HistoryLink kind={kind} id={id} className="mt-3 -ml-3" />
    </section>
  );
}

const dangerButton =
  'inline-flex items-center justify-center rounded-full bg-rose-600 px-4 py-1.5 text-sm font-semibold text-white transition hover:bg-rose-700 disabled:opacity-50';
