import { ReplayablePicture } from './-components/show/ReplayablePicture.tsx';
import { useQuery } from '@tanstack/react-query';
import { createFileRoute } from '@tanstack/react-router';
import { artworkQueryOptions } from '../queries/artworks.ts';
import { getSession } from '../lib/session.ts';
import { gallerySearch, idParams } from '../lib/routeParams.ts';
import { DetailShell } from './-components/detail/DetailShell.tsx';
import { pictureAlt, type ArtworkView as Artwork } from '../../../contract/views.ts';

export const Route = createFileRoute('/artwork/$id')({
  params: idParams,
  validateSearch: gallerySearch,
  loader: ({ context, params }) => {
    if (getSession().signedIn) void context.queryClient.prefetchQuery(artworkQueryOptions(params.id));
  },
  component: ArtworkPage,
});

function ArtworkPage() {
  const { id } = Route.useParams();
  const { page } = Route.useSearch();
  const artwork = useQuery(artworkQueryOptions(id));
  return (
    <DetailShell kind="artwork" id={id} page={page} item={artwork}>
      {(data) => <ArtworkContent artwork={data} />}
    </DetailShell>
  );
}

function ArtworkContent({ artwork }: { artwork: Artwork }) {
  const alt = pictureAlt(artwork);
  return (
    <>
      <div className="relative flex justify-center bg-stone-100 dark:bg-stone-950">
        <ReplayablePicture
          artwork={artwork}
          replayClassName="aspect-[2/1] max-h-[75vh] w-full"
          picture={<img src={artwork.imageData} alt={alt} className="max-h-[75vh] w-auto max-w-full object-contain" />}
        />
      </div>
      <div className="p-6 sm:p-8">
        <h1 className="font-display text-3xl font-bold break-words text-stone-900 sm:text-4xl dark:text-amber-50">
          {artwork.title || 'Untitled'}
        </h1>
        <p className="mt-2 text-lg text-rose-600 dark:text-rose-300">By {artwork.artistName}</p>
        <p className="mt-6 text-lg leading-relaxed break-words whitespace-pre-line text-stone-700 dark:text-stone-300">
          {artwork.description?.trim() || 'No description provided'}
        </p>
      </div>
    </>
  );
}
