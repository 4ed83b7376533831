import { useQuery } from '@tanstack/react-query';
import { pendingMediaQueryOptions } from '../../../queries/admin.ts';
import { mediaTags } from '../../../queries/media.ts';
import { MediaPlayer } from '../media/MediaPlayer.tsx';
import { MediaBadge, TagList } from '../media/MediaBadge.tsx';
import { Transcript } from '../media/Transcript.tsx';
import { AdminCaptions } from './AdminCaptions.tsx';
import { AdminList } from './AdminList.tsx';
import { ReviewControls, Submitter } from './ReviewControls.tsx';
import type { MediaView as Media } from '../../../../../contract/views.ts';

export function PendingMedia() {
  const pending = useQuery(pendingMediaQueryOptions());
  return (
    <AdminList query={pending} empty="No media is waiting for review.">
      {(media) => <PendingMediaCard key={media.id} media={media} />}
    </AdminList>
  );
}

function PendingMediaCard({ media }: { media: Media }) {
  const title = media.title || (media.mediaType === 'video' ? 'Untitled video' : 'Untitled audio');
  return (
    <li className="card flex flex-col overflow-hidden md:flex-row">
      <div className="flex shrink-0 items-center justify-center bg-stone-900 p-3 md:w-80">
        <MediaPlayer media={media} className="max-h-56 rounded-lg" />
      </div>
      <div className="flex flex-1 flex-col gap-3 p-5">
        <div className="space-y-1">
          <MediaBadge mediaType={media.mediaType} />
          <h3 className="font-display text-xl font-semibold break-words text-stone-900 dark:text-amber-50">{title}</h3>
          <Submitter by={media.artistName} email={media.email} createdAt={media.createdAt} />
          {media.description && <p className="text-sm text-stone-600 dark:text-stone-400">{media.description}</p>}
          <TagList tags={mediaTags(media.tags)} />
        </div>
        <Transcript media={media} className="text-sm" />
        <AdminCaptions media={media} />
        <ReviewControls kind="media" id={media.id} label={title} adminNotes={media.adminNotes} />
      </div>
    </li>
  );
}
