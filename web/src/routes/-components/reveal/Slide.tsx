import { MusicIcon } from '../../../components/icons.tsx';
import { MediaPlayer } from '../media/MediaPlayer.tsx';
import { Transcript } from '../media/Transcript.tsx';
import { pictureAlt, type ItemView, type MediaView } from '../../../../../contract/views.ts';

interface SlideProps {
  item: ItemView;
  paused: boolean;
  onPlaying: () => void;
  onEnded: () => void;
}

/** One item, as large as the screen allows: the display-size picture, the story's words, the player. */
export function Slide({ item, ...playback }: SlideProps) {
  switch (item.kind) {
    case 'artwork':
      return (
        <img
          src={item.imageData ?? `/api/artworks/${item.id}/image/display`}
          alt={pictureAlt(item)}
          // Fills the stage even when the picture is small (a drawing is 800x400); the drop shadow
          // follows the painted picture, not the letterboxed box.
          className="h-full w-full object-contain drop-shadow-2xl"
        />
      );
    case 'story':
      return (
        <blockquote
          className={`max-h-full max-w-5xl overflow-y-auto px-2 text-center font-display leading-snug break-words whitespace-pre-line text-stone-800 dark:text-amber-50 ${storySize(item.content)}`}
        >
          <span aria-hidden="true" className="text-amber-500">
            “
          </span>
          {item.content.trim()}
          <span aria-hidden="true" className="text-amber-500">
            ”
          </span>
        </blockquote>
      );
    case 'media':
      return <MediaSlide item={item} {...playback} />;
    default: {
      const unreachable: never = item;
      return unreachable;
    }
  }
}

function MediaSlide({ item, paused, onPlaying, onEnded }: { item: MediaView } & Omit<SlideProps, 'item'>) {
  const media = { ...item, mediaData: item.mediaData ?? item.streamUrl ?? '' };
  if (item.mediaType === 'video') {
    return (
      <MediaPlayer
        media={media}
        autoPlay
        muted
        paused={paused}
        onPlaying={onPlaying}
        onEnded={onEnded}
        className="max-h-full rounded-xl object-contain shadow-2xl shadow-stone-900/30"
      />
    );
  }
  return (
    <div className="flex w-full max-w-xl flex-col items-center gap-8">
      <span className="flex h-32 w-32 items-center justify-center rounded-full bg-gradient-to-br from-violet-500 to-rose-500 text-white shadow-2xl sm:h-44 sm:w-44">
        <MusicIcon className="h-16 w-16 sm:h-20 sm:w-20" />
      </span>
      <MediaPlayer media={media} autoPlay paused={paused} onPlaying={onPlaying} onEnded={onEnded} />
      <Transcript media={media} className="max-h-[40vh] w-full overflow-y-auto" />
    </div>
  );
}

/** Short stories fill the screen; long ones get smaller type (and scroll, if they must). */
function storySize(content: string): string {
  const length = content.trim().length;
  if (length <= 140) return 'text-3xl sm:text-5xl lg:text-6xl';
  if (length <= 400) return 'text-2xl sm:text-4xl lg:text-5xl';
  if (length <= 900) return 'text-xl sm:text-3xl lg:text-4xl';
  return 'text-lg sm:text-2xl lg:text-3xl';
}
