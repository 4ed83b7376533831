import { useEffect, useRef, useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { captionsQueryOptions, mediaStreamUrl } from '../../../queries/media.ts';
import type { MediaView as Media } from '../../../../../contract/views.ts';

// Spec §4 Playback: after an error the player reloads after 1 second. A few tries, not forever,
// so a file that cannot play does not keep the browser busy.
const RETRY_DELAY_MS = 1000;
const MAX_RETRIES = 3;

interface MediaPlayerProps {
  media: Pick<Media, 'id' | 'mediaType' | 'mediaData' | 'thumbnailUrl' | 'title' | 'captionsUrl'>;
  className?: string;
  /** The slideshow's playback: starts by itself (muted for video, as browsers allow), holds while paused. */
  autoPlay?: boolean;
  muted?: boolean;
  paused?: boolean;
  onPlaying?: () => void;
  onEnded?: () => void;
}

/** A video or audio player: the stream first, the stored path as the fallback source (spec §7). */
export function MediaPlayer({
  media,
  className = '',
  autoPlay = false,
  muted = false,
  paused,
  onPlaying,
  onEnded,
}: MediaPlayerProps) {
  const player = useRef<HTMLVideoElement & HTMLAudioElement>(null);
  const retries = useRef(0);
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  // the track's words, shared with the transcript: new words at the same address make a new <track>
  const words = useQuery({
    ...captionsQueryOptions(media),
    enabled: media.captionsUrl !== null && media.mediaType === 'video',
  });
  const trackKey = useTrackKey(media.captionsUrl, words.data);

  useEffect(() => {
    retries.current = 0;
    return () => clearTimeout(timer.current);
  }, [media.id]);

  useEffect(() => {
    const element = player.current;
    if (!element || paused === undefined) return;
    if (paused) element.pause();
    // A browser may refuse to start sound without a gesture; the controls are there for that.
    else if (autoPlay) element.play().catch(() => {});
  }, [paused, autoPlay]);

  function onError() {
    if (retries.current >= MAX_RETRIES) return;
    retries.current += 1;
    clearTimeout(timer.current);
    timer.current = setTimeout(() => player.current?.load(), RETRY_DELAY_MS);
  }

  const label = media.title || (media.mediaType === 'video' ? 'Video' : 'Audio');
  // No type attributes: a MOV may be served as MP4 once transcoded, so the browser should sniff.
  // The browser tries the sources in order; only the last one's error means nothing could play.
  const sources = (
    <>
      <source src={mediaStreamUrl(media.id)} />
      <source src={media.mediaData || mediaStreamUrl(media.id)} onError={onError} />
    </>
  );

  if (media.mediaType === 'video') {
    return (
      // oxlint-disable-next-line jsx-a11y/media-has-caption -- the track below comes when its sender or an admin gave one
      <video
        ref={player}
        controls
        playsInline
        preload="metadata"
        autoPlay={autoPlay}
        muted={muted}
        poster={media.thumbnailUrl ?? undefined}
        aria-label={label}
        onError={onError}
        onPlaying={onPlaying}
        onEnded={onEnded}
        className={`w-full bg-black ${className}`}
      >
        {sources}
        {/* its sender's or an admin's words (decision 123), shown from the start: the room may have no sound.
            The browser loads them itself, from the first render: playback never waits on the transcript's fetch */}
        {media.captionsUrl && <track key={trackKey} kind="captions" src={media.captionsUrl} label="Captions" default />}
        Your browser cannot play this video.
      </video>
    );
  }
  return (
    // oxlint-disable-next-line jsx-a11y/media-has-caption -- an audio message has no picture to caption; its transcript goes beside it (decision 130)
    <audio
      ref={player}
      controls
      preload="metadata"
      autoPlay={autoPlay}
      muted={muted}
      aria-label={label}
      onError={onError}
      onPlaying={onPlaying}
      onEnded={onEnded}
      className={`w-full ${className}`}
    >
      {sources}
      Your browser cannot play this audio.
    </audio>
  );
}

/**
 * The key of a message's `<track>`: its address, and how many times its words changed since this
 * player first read them. The element comes with the item (its address is on the item view) and is
 * not made again when the words' first fetch answers; when an admin replaces the track at the same
 * address, the refetch answers other words, the key moves on, and the browser loads the new cues.
 */
function useTrackKey(url: string | null, words: string | undefined): string {
  const [seen, setSeen] = useState({ url, words, changes: 0 });
  if (seen.url !== url) setSeen({ url, words, changes: 0 });
  else if (words !== undefined && words !== seen.words) {
    setSeen({ url, words, changes: seen.words === undefined ? seen.changes : seen.changes + 1 });
  }
  return `${url}#${seen.changes}`;
}
