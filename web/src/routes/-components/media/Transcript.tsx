import { useMemo } from 'react';
import { useQuery } from '@tanstack/react-query';
import { captionsQueryOptions } from '../../../queries/media.ts';
import { clockOf, transcriptOf } from '../../../../../contract/transcript.ts';
import type { MediaView as Media } from '../../../../../contract/views.ts';

interface TranscriptProps {
  media: Pick<Media, 'id' | 'captionsUrl'>;
  className?: string;
}

/**
 * The words of a message's WebVTT track as text under its player, folded until asked for (decision
 * 130): an audio message's transcript, or a video's captions to read at one's own pace. Nothing when
 * the message has no track.
 */
export function Transcript({ media, className = '' }: TranscriptProps) {
  const track = useQuery(captionsQueryOptions(media));
  const lines = useMemo(() => (track.data ? transcriptOf(track.data) : []), [track.data]);
  if (!media.captionsUrl || lines.length === 0) return null;
  return (
    <details
      className={`group rounded-xl border border-stone-200 bg-white/80 text-left text-stone-800 dark:border-stone-700 dark:bg-stone-900/80 dark:text-stone-100 ${className}`}
    >
      <summary className="flex cursor-pointer items-center gap-2 rounded-xl px-4 py-3 font-semibold select-none hover:bg-amber-50 focus-visible:outline-2 focus-visible:outline-amber-500 dark:hover:bg-stone-800">
        <span aria-hidden="true" className="transition-transform group-open:rotate-90">
          ▸
        </span>
        <span>Transcript</span>
      </summary>
      <div className="space-y-2 border-t border-stone-200 px-4 py-3 leading-relaxed dark:border-stone-700">
        {lines.map((line, index) => (
          <p key={index} className="flex gap-3">
            <span className="shrink-0 pt-0.5 text-sm text-stone-600 tabular-nums dark:text-stone-400">
              {clockOf(line.start)}
            </span>
            <span className="break-words">{line.text}</span>
          </p>
        ))}
      </div>
    </details>
  );
}
