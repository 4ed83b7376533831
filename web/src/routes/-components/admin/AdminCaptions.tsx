import { useMutation, useQueryClient } from '@tanstack/react-query';
import { serverMessageOf } from '../../../lib/api.ts';
import { adminKeys } from '../../../queries/adminKeys.ts';
import { captionsQueryOptions, setCaptions } from '../../../queries/media.ts';
import { toast } from '../../../components/Toaster.tsx';
import { CaptionsPicker } from '../media/CaptionsPicker.tsx';
import type { MediaView as Media } from '../../../../../contract/views.ts';

/**
 * An admin adds, replaces or removes a message's track in the queue: a video's captions (decision
 * 123), an audio message's transcript (decision 130).
 */
export function AdminCaptions({ media }: { media: Pick<Media, 'id' | 'captionsUrl' | 'mediaType'> }) {
  const queryClient = useQueryClient();
  const words = media.mediaType === 'video' ? 'Captions' : 'Transcript';
  const change = useMutation({
    mutationFn: (text: string | null) => setCaptions(media.id, text),
    onSuccess: (_saved, text) => {
      toast({ title: text === null ? `${words} removed` : `${words} saved` });
      // the queue's lists, and the track's words under the player
      void queryClient.invalidateQueries({ queryKey: adminKeys.all });
      void queryClient.invalidateQueries({ queryKey: captionsQueryOptions(media).queryKey });
    },
    onError: (error) =>
      toast({ title: `${words} not saved`, description: serverMessageOf(error), variant: 'destructive' }),
  });
  return (
    <div className="space-y-2">
      <CaptionsPicker
        chosen={null}
        mediaType={media.mediaType}
        onChange={(file) => file && change.mutate(file.text)}
        disabled={change.isPending}
      />
      {media.captionsUrl && (
        <p className="flex items-center gap-2 text-sm text-stone-700 dark:text-stone-300">
          {media.mediaType === 'video' ? 'This video has captions.' : 'This recording has a transcript.'}
          <button
            type="button"
            className="text-rose-700 underline dark:text-rose-300"
            disabled={change.isPending}
            onClick={() => change.mutate(null)}
          >
            Remove {words.toLowerCase()}
          </button>
        </p>
      )}
    </div>
  );
}
