import { useEffect, useRef, useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import type { StrokeRecording } from '../../../../../contract/strokes.ts';
import { strokesDuration } from '../../../../../contract/strokes.ts';
import { api } from '../../../lib/api.ts';
import { drawRecording, replaySpeed } from '../../../drawing/replay.ts';
import { itemKey } from '../../../queries/itemKinds.ts';

export function strokesQueryOptions(artworkId: number) {
  return {
    queryKey: [...itemKey('artwork', artworkId), 'strokes'] as const,
    queryFn: ({ signal }: { signal: AbortSignal }) =>
      api<StrokeRecording>(`/api/artworks/${artworkId}/strokes`, { signal }),
    retry: false,
    staleTime: Number.POSITIVE_INFINITY,
  };
}

/** Fired on the canvas when the last stroke is drawn, just before the submitted image is laid over it. */
export const STROKES_DRAWN = 'strokes-drawn';

const reducedMotion = () => window.matchMedia('(prefers-reduced-motion: reduce)').matches;

/**
 * A drawing being drawn: its recorded strokes replayed at their own pace (sped up past 12 s), then the
 * drawing's own image laid over the canvas, so it settles on exactly what was submitted. Without a
 * recording (an upload, an older drawing) or with reduced motion, the image at once.
 */
export function StrokeReplay({
  artworkId,
  imageUrl,
  alt,
  paused = false,
}: {
  artworkId: number;
  imageUrl: string;
  alt: string;
  paused?: boolean;
}) {
  const strokes = useQuery(strokesQueryOptions(artworkId));
  const canvas = useRef<HTMLCanvasElement>(null);
  const [done, setDone] = useState(false);
  const pausedRef = useRef(paused);
  pausedRef.current = paused;

  const recording = strokes.data;
  const skip = strokes.isError || (recording !== undefined && (recording.strokes.length === 0 || reducedMotion()));

  useEffect(() => {
    const ctx = canvas.current?.getContext('2d');
    if (!recording || !ctx || skip) return;
    setDone(false);
    const speed = replaySpeed(recording);
    const duration = strokesDuration(recording);
    let at = 0;
    let last = performance.now();
    drawRecording(ctx, recording, 0); // the blank page at once, before the first frame
    let frame = requestAnimationFrame(function step(now) {
      if (!pausedRef.current) at += (now - last) * speed;
      last = now;
      drawRecording(ctx, recording, at);
      if (at < duration) {
        frame = requestAnimationFrame(step);
        return;
      }
      // The strokes alone are on the canvas for this one task: a listener (the e2e test) may read
      // them now, to check the replay against the submitted picture before that picture covers it.
      ctx.canvas.dispatchEvent(new Event(STROKES_DRAWN, { bubbles: true }));
      // settle on the submitted picture itself
      const image = new Image();
      image.onload = () => {
        ctx.drawImage(image, 0, 0, recording.width, recording.height);
        setDone(true);
      };
      image.onerror = () => setDone(true);
      image.src = imageUrl;
    });
    return () => cancelAnimationFrame(frame);
  }, [recording, skip, imageUrl]);

  if (strokes.isPending) return null;
  if (skip) return <img src={imageUrl} alt={alt} className="h-full w-full object-contain drop-shadow-2xl" />;
  return (
    <canvas
      ref={canvas}
      role="img"
      aria-label={alt}
      data-testid="stroke-replay"
      data-replayed={done ? 'done' : 'playing'}
      width={recording!.width}
      height={recording!.height}
      className="h-full w-full object-contain drop-shadow-2xl"
    />
  );
}
