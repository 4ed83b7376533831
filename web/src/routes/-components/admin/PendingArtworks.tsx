import { useQuery } from '@tanstack/react-query';
import { pendingArtworksQueryOptions } from '../../../queries/admin.ts';
import { ReplayablePicture } from '../show/ReplayablePicture.tsx';
import { AdminList } from './AdminList.tsx';
import { ReviewControls, Submitter } from './ReviewControls.tsx';
import { pictureAlt, type ArtworkView as Artwork } from '../../../../../contract/views.ts';

export function PendingArtworks() {
  const pending = useQuery(pendingArtworksQueryOptions());
  return (
    <AdminList query={pending} empty="No artworks are waiting for review.">
      {(artwork) => <PendingArtworkCard key={artwork.id} artwork={artwork} />}
    </AdminList>
  );
}

function PendingArtworkCard({ artwork }: { artwork: Artwork }) {
  const title = artwork.title || 'Untitled';
  return (
    <li className="card flex flex-col overflow-hidden md:flex-row">
      {/* a drawing replays here before the admin decides: what the room will see (CONTRACT §9) */}
      <div className="relative flex shrink-0 items-center justify-center bg-stone-100 md:w-72 dark:bg-stone-950">
        <ReplayablePicture
          artwork={artwork}
          replayClassName="aspect-[2/1] w-full"
          picture={
            <a href={artwork.imageData} target="_blank" rel="noreferrer" className="w-full">
              <img
                src={artwork.thumbnailUrl ?? artwork.imageData}
                alt={pictureAlt(artwork)}
                className="max-h-64 w-full object-contain"
              />
            </a>
          }
        />
      </div>
      <div className="flex flex-1 flex-col gap-3 p-5">
        <div>
          <h3 className="font-display text-xl font-semibold text-stone-900 dark:text-amber-50">{title}</h3>
          <Submitter by={artwork.artistName} email={artwork.email} createdAt={artwork.createdAt} />
          {artwork.description && (
            <p className="mt-2 text-sm text-stone-600 dark:text-stone-400">{artwork.description}</p>
          )}
        </div>
        <ReviewControls kind="artwork" id={artwork.id} label={title} adminNotes={artwork.adminNotes} />
      </div>
    </li>
  );
}
