import { useMutation, useQueryClient } from '@tanstack/react-query';
import { serverMessageOf } from '../../../lib/api.ts';
import { adminKeys } from '../../../queries/adminKeys.ts';
import { setCaptions } from '../../../queries/media.ts';
import { toast } from '../../../components/Toaster.tsx';
import { CaptionsPicker } from '../media/CaptionsPicker.tsx';
import type { MediaView as Media } from '../../../../../contract/views.ts';

/** An admin adds, replaces or removes a video's caption track in the queue (decision 123). */
export function AdminCaptions({ media }: { media: Pick<Media, 'id' | 'captionsUrl'> }) {
  const queryClient = useQueryClient();
  const change = useMutation({
    mutationFn: (text: string | null) => setCaptions(media.id, text),
    onSuccess: (_saved, text) => {
      toast({ title: text === null ? 'Captions removed' : 'Captions saved' });
      void queryClient.invalidateQueries({ queryKey: adminKeys.all });
    },
    onError: (error) =>
      toast({ title: 'Captions not saved', description: serverMessageOf(error), variant: 'destructive' }),
  });
  return (
    <div className="space-y-2">
      <CaptionsPicker chosen={null} onChange={(file) => file && change.mutate(file.text)} disabled={change.isPending} />
      {media.captionsUrl && (
        <p className="flex items-center gap-2 text-sm text-stone-700 dark:text-stone-300">
          This video has captions.
          <button
            type="button"
            className="text-rose-700 underline dark:text-rose-300"
            disabled={change.isPending}
            onClick={() => change.mutate(null)}
          >
            Remove captions
          </button>
        </p>
      )}
    </div>
  );
}
