import { useState } from 'react';
import { toast } from '../../../components/Toaster.tsx';
import { ApiError } from '../../../lib/api.ts';
import { muralAction, type MuralState } from '../../../queries/mural.ts';
import type { MuralModel } from '../../../mural/model.ts';

/** An admin's row under the mural: lock, unlock, freeze, remove strokes, and the big screen's link. */
export function MuralAdminBar({
  model,
  state,
  artworkId,
  removing,
  removed,
  onToggleRemove,
  onRemoveNewest,
}: {
  model: MuralModel;
  state: MuralState;
  artworkId: number | null;
  removing: boolean;
  removed: string;
  onToggleRemove: () => void;
  onRemoveNewest: () => void;
}) {
  const [busy, setBusy] = useState(false);

  const act = async (action: 'lock' | 'unlock' | 'freeze') => {
    if (action === 'freeze' && !window.confirm('Freeze the mural? It becomes an artwork awaiting approval.')) return;
    setBusy(true);
    try {
      const answer = await muralAction(action);
      if (action === 'freeze') {
        toast({ title: 'The mural is frozen', description: 'Its picture is waiting in the admin queue.' });
      }
      if (answer.artworkId) model.artworkId = answer.artworkId;
    } catch (error) {
      toast({
        title: `Could not ${action} the mural`,
        description: error instanceof ApiError ? error.message : 'Please try again.',
        variant: 'destructive',
      });
    } finally {
      setBusy(false);
    }
  };

  return (
    <div className="mt-3 flex flex-wrap items-center gap-2 rounded-lg border border-amber-300 bg-amber-50 p-2 dark:border-amber-700 dark:bg-stone-800">
      <span className="text-sm font-semibold text-amber-800 dark:text-amber-300">Admin</span>
      {state === 'open' && <AdminButton label="Lock" busy={busy} onClick={() => void act('lock')} />}
      {state === 'locked' && <AdminButton label="Unlock" busy={busy} onClick={() => void act('unlock')} />}
      {state !== 'frozen' && <AdminButton label="Freeze" busy={busy} onClick={() => void act('freeze')} />}
      {state !== 'frozen' && (
        <>
          <button
            type="button"
            aria-pressed={removing}
            onClick={onToggleRemove}
            className={`rounded-lg border px-3 py-1.5 text-sm font-semibold ${
              removing
                ? 'border-rose-600 bg-rose-600 text-white'
                : 'border-amber-500 bg-white text-amber-800 dark:bg-stone-900 dark:text-amber-300'
            }`}
          >
            Remove strokes
          </button>
          <button
            type="button"
            onClick={onRemoveNewest}
            className="rounded-lg border border-amber-500 bg-white px-3 py-1.5 text-sm font-semibold text-amber-800 disabled:opacity-40 dark:bg-stone-900 dark:text-amber-300"
          >
            Remove newest stroke
          </button>
          <span role="status" className="text-sm text-stone-700 dark:text-stone-300">
            {removing ? `Tap a stroke to remove it. ${removed}` : removed}
          </span>
        </>
      )}
      {state === 'frozen' && artworkId !== null && (
        <span className="text-sm text-stone-700 dark:text-stone-300">Artwork #{artworkId} is in the queue.</span>
      )}
      <a
        href="/mural?screen"
        target="_blank"
        rel="noreferrer"
        className="ml-auto text-sm text-amber-800 underline dark:text-amber-300"
      >
        Big screen
      </a>
    </div>
  );
}

function AdminButton({ label, busy, onClick }: { label: string; busy: boolean; onClick: () => void }) {
  return (
    <button
      type="button"
      disabled={busy}
      onClick={onClick}
      className="rounded-lg bg-amber-500 px-3 py-1.5 text-sm font-semibold text-white hover:bg-amber-600 disabled:opacity-50"
    >
      {label}
    </button>
  );
}
