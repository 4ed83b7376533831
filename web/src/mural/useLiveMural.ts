import { useCallback, useEffect, useRef } from 'react';
import { useQuery } from '@tanstack/react-query';
import { useLiveMessages } from '../live/connection.ts';
import { useWatchMural } from '../live/muralRoom.ts';
import type { LiveMessage } from '../live/sequence.ts';
import { muralQueryOptions } from '../queries/mural.ts';
import { MuralModel, type MuralMessage, type Paint } from './model.ts';
import { MuralSurface } from './surface.ts';

const isMural = (m: LiveMessage): m is LiveMessage & MuralMessage => m.event.startsWith('mural:');

/**
 * The mural as it stands, kept live and painted on the canvas `baseRef` points at: the snapshot from
 * `GET /api/mural`, then every mural message after it, each painted once (decision 039). `/mural`
 * draws over it; the show puts it up read-only (decision 046). `onPaint` hears of each change after it
 * is painted.
 */
export function useLiveMural(onPaint?: (change: Paint) => void) {
  useWatchMural();
  const snapshot = useQuery(muralQueryOptions());
  const baseRef = useRef<HTMLCanvasElement>(null);
  const model = useRef(new MuralModel()).current;
  const surface = useRef<MuralSurface>(null);
  const heard = useRef(onPaint);
  heard.current = onPaint;

  const paint = useCallback(
    (change: Paint | undefined) => {
      if (!change || !surface.current) return;
      if (change.kind === 'all') surface.current.all(model.strokes.values());
      else if (change.kind === 'add') surface.current.add(change.stroke);
      else if (change.kind === 'remove') surface.current.remove(change.stroke, model.strokes.values());
      // tells tests (and the curious) where the canvas stands, without a render
      const canvas = baseRef.current;
      if (canvas) {
        canvas.dataset.position = String(model.position);
        canvas.dataset.strokes = String(model.strokes.size);
        canvas.dataset.state = model.state;
      }
      heard.current?.(change);
    },
    [model],
  );

  // a fresh snapshot (first load, or a resync after a gap) repaints everything, once
  useEffect(() => {
    if (!baseRef.current) return;
    surface.current ??= new MuralSurface(baseRef.current);
    if (snapshot.data) paint(model.reset(snapshot.data));
  }, [snapshot.data, model, paint]);

  useLiveMessages((message) => {
    if (isMural(message)) paint(model.apply(message));
  });

  return { baseRef, model, paint, snapshot };
}
