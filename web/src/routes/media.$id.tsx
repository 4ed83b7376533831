import { useQuery } from '@tanstack/react-query';
import { createFileRoute } from '@tanstack/react-router';
import { mediaQueryOptions, mediaTags } from '../queries/media.ts';
import { getSession } from '../lib/session.ts';
import { gallerySearch, idParams } from '../lib/routeParams.ts';
import { DetailShell } from './-components/detail/DetailShell.tsx';
import { MediaPlayer } from './-components/media/MediaPlayer.tsx';
import { MediaBadge, TagList } from './-components/media/MediaBadge.tsx';
import { Transcript } from './-components/media/Transcript.tsx';
import type { MediaView as Media } from '../../../contract/views.ts';

export const Route = createFileRoute('/media/$id')({
  params: idParams,
  validateSearch: gallerySearch,
  loader: ({ context, params }) => {
    if (getSession().signedIn) void context.queryClient.prefetchQuery(mediaQueryOptions(params.id));
  },
  component: MediaPage,
});

function MediaPage() {
  const { id } = Route.useParams();
  const { page } = Route.useSearch();
  const media = useQuery(mediaQueryOptions(id));
  return (
    <DetailShell kind="media" id={id} page={page} item={media}>
      {(data) => <MediaContent media={data} />}
    </DetailShell>
  );
}

function MediaContent({ media }: { media: Media }) {
  const video = media.mediaType === 'video';
  return (
    <>
      {video ? (
        <MediaPlayer media={media} className="max-h-[70vh]" />
      ) : (
        <div className="space-y-6 bg-gradient-to-br from-violet-100 to-amber-50 px-6 py-10 sm:px-10 dark:from-stone-800 dark:to-stone-900">
          <MediaPlayer media={media} />
          <Transcript media={media} />
        </div>
      )}
      <div className="space-y-4 p-6 sm:p-8">
        <MediaBadge mediaType={media.mediaType} />
        <h1 className="font-display text-3xl font-bold break-words text-stone-900 sm:text-4xl dark:text-amber-50">
          {media.title || (video ? 'Untitled video' : 'Untitled audio')}
        </h1>
        <p className="text-lg text-rose-600 dark:text-rose-300">By {media.artistName}</p>
        {media.description?.trim() && (
          <p className="text-lg leading-relaxed break-words whitespace-pre-line text-stone-700 dark:text-stone-300">
            {media.description}
          </p>
        )}
        <TagList tags={mediaTags(media.tags)} />
        {video && <Transcript media={media} />}
      </div>
    </>
  );
}
