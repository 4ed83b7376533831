import { useEffect, useRef, useState } from 'react';

/**
 * The montage on the show's screens (decision 125): the film `/api/montage.mp4` serves, played like a
 * video slide (muted to start, as a browser allows with no gesture; the controls give the sound).
 * Once the approved videos change, the film is no longer served: the screen says so instead of
 * showing a broken player.
 */
export function ShowMontage({ paused }: { paused: boolean }) {
  const player = useRef<HTMLVideoElement>(null);
  const [gone, setGone] = useState(false);
  useEffect(() => {
    const element = player.current;
    if (!element) return;
    if (paused) element.pause();
    else element.play().catch(() => {});
  }, [paused]);
  if (gone) {
    return (
      <div className="text-center">
        <p className="font-display text-3xl font-bold sm:text-5xl">The film is being made again</p>
        <p className="mt-3 text-lg text-stone-600 dark:text-stone-400">The presenter will move on in a moment.</p>
      </div>
    );
  }
  return (
    <video
      ref={player}
      src="/api/montage.mp4"
      autoPlay
      muted
      controls
      playsInline
      aria-label="The montage"
      onError={() => setGone(true)}
      className="max-h-full max-w-full rounded-xl bg-black object-contain shadow-2xl shadow-stone-900/30"
    />
  );
}
