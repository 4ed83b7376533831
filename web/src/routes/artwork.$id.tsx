import { useState } from 'react';
import { StrokeReplay, strokesQueryOptions } from './-components/show/StrokeReplay.tsx';
import { useQuery } from '@tanstack/react-query';
import { createFileRoute } from '@tanstack/react-router';
import { artworkQueryOptions, type Artwork } from '../queries/artworks.ts';
import { getSession } from '../lib/session.ts';
import { gallerySearch, idParams } from '../lib/routeParams.ts';
import { DetailShell } from './-components/detail/DetailShell.tsx';

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
  const [replaying, setReplaying] = useState(0);
  const drawing = (artwork as Artwork & { isFromCanvas?: string }).isFromCanvas === 'true';
  // Only a drawing sent from /create has strokes to replay: a frozen mural is a canvas picture too, but
  // its strokes are the mural's, not a recording (404), and so is a drawing older than recordings.
  // The recording is fetched with the page, so the button appears only when there is something to play.
  const strokes = useQuery({ ...strokesQueryOptions(artwork.id), enabled: drawing });
  const replayable = drawing && (strokes.data?.strokes.length ?? 0) > 0;
  const alt = artwork.title || `Artwork by ${artwork.artistName}`;
  return (
    <>
      <div className="relative flex justify-center bg-stone-100 dark:bg-stone-950">
        {replaying ? (
          <div className="aspect-[2/1] max-h-[75vh] w-full">
            <StrokeReplay key={replaying} artworkId={artwork.id} imageUrl={artwork.imageData} alt={alt} />
          </div>
        ) : (
          <img src={artwork.imageData} alt={alt} className="max-h-[75vh] w-auto max-w-full object-contain" />
        )}
        {replayable && (
          <button
            type="button"
            onClick={() => setReplaying((n) => n + 1)}
            className="btn-secondary absolute right-3 bottom-3 text-sm"
          >
            {replaying ? 'Replay again' : 'Replay drawing'}
          </button>
        )}
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
