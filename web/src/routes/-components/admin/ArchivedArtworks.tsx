import { useQuery } from '@tanstack/react-query';
import { archivedArtworksQueryOptions, useRestoreArtwork } from '../../../queries/admin.ts';
import { formatDate } from '../../../lib/format.ts';
import { toast } from '../../../components/Toaster.tsx';
import { HistoryLink } from '../audit/HistoryLink.tsx';
import { AdminList } from './AdminList.tsx';
import { pictureAlt, type ArtworkView as Artwork } from '../../../../../contract/views.ts';

export function ArchivedArtworks() {
  const archived = useQuery(archivedArtworksQueryOptions());
  return (
    <AdminList query={archived} empty="No archived artworks.">
      {(artwork) => <ArchivedArtworkCard key={artwork.id} artwork={artwork} />}
    </AdminList>
  );
}

function ArchivedArtworkCard({ artwork }: { artwork: Artwork }) {
  const restore = useRestoreArtwork(artwork.id, {
    onSuccess: () =>
      toast({ title: 'Artwork restored', description: `"${artwork.title || 'Untitled'}" is back in the gallery.` }),
    onError: (error) => {
      toast({ title: 'Error', description: `Failed to restore artwork: ${error.message}`, variant: 'destructive' });
    },
  });

  return (
    <li className="card flex items-center gap-4 p-4">
      <img
        src={artwork.thumbnailUrl ?? artwork.imageData}
        alt={pictureAlt(artwork)}
        className="h-20 w-20 shrink-0 rounded-xl object-cover"
      />
      <div className="min-w-0 flex-1">
        <h3 className="truncate font-display text-lg font-semibold text-stone-900 dark:text-amber-50">
          {artwork.title || 'Untitled'}
        </h3>
        <p className="text-sm text-stone-600 dark:text-stone-400">By {artwork.artistName}</p>
        <p className="text-xs text-stone-500">Archived {formatDate(artwork.archivedAt ?? artwork.createdAt)}</p>
      </div>
      <div className="flex shrink-0 flex-col items-end gap-1 sm:flex-row sm:items-center sm:gap-2">
        <button type="button" onClick={() => restore.mutate()} disabled={restore.isPending} className="btn-secondary">
          Restore
        </button>
        <HistoryLink kind="artwork" id={artwork.id} />
      </div>
    </li>
  );
}
