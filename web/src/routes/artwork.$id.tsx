import { useEffect } from 'react';
import { useQuery } from '@tanstack/react-query';
import { createFileRoute, Link } from '@tanstack/react-router';
import { artworkQueryOptions } from '../queries/artworks.ts';
import { getSession } from '../lib/session.ts';
import { gallerySearch, idParams } from '../lib/routeParams.ts';
import { rememberedGalleryPage } from '../lib/galleryPosition.ts';
import { ArrowLeftIcon } from '../components/icons.tsx';

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
  const backPage = page ?? rememberedGalleryPage();

  useEffect(() => {
    window.scrollTo({ top: 0 });
  }, [id]);

  if (artwork.isError) {
    return (
      <div className="mx-auto max-w-xl px-4 py-24 text-center">
        <h1 className="font-display text-3xl font-bold text-stone-900 dark:text-amber-50">Error Loading Artwork</h1>
        <p className="mt-3 text-stone-600 dark:text-stone-400">The artwork could not be found or loaded.</p>
        <Link to="/gallery" search={{ page: backPage }} className="btn-primary mt-8">
          Return to Gallery
        </Link>
      </div>
    );
  }

  return (
    <div className="mx-auto max-w-5xl px-4 py-8 sm:px-6 sm:py-12">
      <Link to="/gallery" search={{ page: backPage }} className="btn-secondary mb-8">
        <ArrowLeftIcon className="h-4 w-4" /> Back to Gallery
      </Link>
      {artwork.isPending ? (
        <div className="card animate-pulse overflow-hidden" aria-label="Loading artwork" role="status">
          <div className="aspect-[4/3] bg-amber-100 dark:bg-stone-800" />
          <div className="space-y-3 p-6">
            <div className="h-8 w-1/2 rounded bg-amber-100 dark:bg-stone-800" />
            <div className="h-5 w-1/4 rounded bg-amber-100 dark:bg-stone-800" />
          </div>
        </div>
      ) : (
        <article className="card overflow-hidden">
          <div className="flex justify-center bg-stone-100 dark:bg-stone-950">
            <img
              src={artwork.data.imageData}
              alt={artwork.data.title || 'Untitled artwork'}
              className="max-h-[75vh] w-auto max-w-full object-contain"
            />
          </div>
          <div className="p-6 sm:p-8">
            <h1 className="font-display text-3xl font-bold text-stone-900 sm:text-4xl dark:text-amber-50">
              {artwork.data.title || 'Untitled'}
            </h1>
            <p className="mt-2 text-lg text-rose-600 dark:text-rose-300">By {artwork.data.artistName}</p>
            <p className="mt-6 text-lg leading-relaxed whitespace-pre-line text-stone-700 dark:text-stone-300">
              {artwork.data.description?.trim() || 'No description provided'}
            </p>
          </div>
        </article>
      )}
    </div>
  );
}
