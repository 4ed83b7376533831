import { useId, useState } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  adminKeys,
  pendingArtworksQueryOptions,
  reviewArtwork,
  type ReviewDecision,
} from '../../../queries/admin.ts';
import type { Artwork } from '../../../queries/artworks.ts';
import { artworkKeys } from '../../../queries/artworks.ts';
import { galleryKeys } from '../../../queries/gallery.ts';
import { formatDate } from '../../../lib/format.ts';
import { toast } from '../../../components/Toaster.tsx';
import { AdminList } from './AdminList.tsx';

export function PendingArtworks() {
  const pending = useQuery(pendingArtworksQueryOptions());
  return (
    <AdminList query={pending} empty="No artworks are waiting for review.">
      {(artwork) => <PendingArtworkCard key={artwork.id} artwork={artwork} />}
    </AdminList>
  );
}

function PendingArtworkCard({ artwork }: { artwork: Artwork }) {
  const queryClient = useQueryClient();
  const notesId = useId();
  const [notes, setNotes] = useState(artwork.adminNotes ?? '');

  const review = useMutation({
    mutationFn: (status: ReviewDecision) => reviewArtwork(artwork.id, status, notes.trim()),
    onSuccess: (_result, status) => {
      toast({ title: 'Artwork updated', description: `"${artwork.title || 'Untitled'}" was ${status}.` });
      void queryClient.invalidateQueries({ queryKey: adminKeys.all });
      void queryClient.invalidateQueries({ queryKey: galleryKeys.all });
      void queryClient.invalidateQueries({ queryKey: artworkKeys.detail(artwork.id) });
    },
    onError: (error) => {
      toast({ title: 'Error', description: `Failed to update artwork: ${error.message}`, variant: 'destructive' });
    },
  });

  return (
    <li className="card flex flex-col overflow-hidden md:flex-row">
      <a
        href={artwork.imageData}
        target="_blank"
        rel="noreferrer"
        className="flex shrink-0 items-center justify-center bg-stone-100 md:w-72 dark:bg-stone-950"
      >
        <img
          src={artwork.thumbnailUrl ?? artwork.imageData}
          alt={artwork.title || 'Untitled artwork'}
          className="max-h-64 w-full object-contain"
        />
      </a>
      <div className="flex flex-1 flex-col gap-3 p-5">
        <div>
          <h3 className="font-display text-xl font-semibold text-stone-900 dark:text-amber-50">{artwork.title || 'Untitled'}</h3>
          <p className="text-stone-700 dark:text-stone-300">By {artwork.artistName}</p>
          {artwork.email && <p className="text-sm text-stone-500 dark:text-stone-400">{artwork.email}</p>}
          <p className="text-sm text-stone-500 dark:text-stone-400">{formatDate(artwork.createdAt)}</p>
          {artwork.description && <p className="mt-2 text-sm text-stone-600 dark:text-stone-400">{artwork.description}</p>}
        </div>
        <div>
          <label htmlFor={notesId} className="field-label">
            Admin notes
          </label>
          <textarea id={notesId} rows={2} value={notes} onChange={(event) => setNotes(event.target.value)} className="field" />
        </div>
        <div className="flex gap-3">
          <button
            type="button"
            disabled={review.isPending}
            onClick={() => review.mutate('approved')}
            className="inline-flex items-center rounded-full bg-emerald-600 px-5 py-2 font-semibold text-white transition hover:bg-emerald-700 disabled:opacity-50"
          >
            Approve
          </button>
          <button
            type="button"
            disabled={review.isPending}
            onClick={() => review.mutate('rejected')}
            className="inline-flex items-center rounded-full bg-rose-600 px-5 py-2 font-semibold text-white transition hover:bg-rose-700 disabled:opacity-50"
          >
            Reject
          </button>
        </div>
      </div>
    </li>
  );
}
