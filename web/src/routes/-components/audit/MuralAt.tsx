import { useEffect, useRef } from 'react';
import { useQuery } from '@tanstack/react-query';
import { muralAtOptions } from '../../../queries/audit.ts';
import { MuralSurface } from '../../../mural/surface.ts';
import { AtPanel } from './parts.tsx';

/** The mural as it stood right after event `at`, painted with the one painter (contract/paint.ts). */
export function MuralAt({ at, enabled }: { at: number; enabled: boolean }) {
  const mural = useQuery({ ...muralAtOptions(at), enabled });
  const canvasRef = useRef<HTMLCanvasElement>(null);
  const surfaceRef = useRef<MuralSurface | null>(null);
  const data = mural.data;

  useEffect(() => {
    const canvas = canvasRef.current;
    if (!canvas || !data) return;
    surfaceRef.current ??= new MuralSurface(canvas);
    surfaceRef.current.all(data.strokes);
    canvas.dataset.strokes = String(data.strokes.length);
    canvas.dataset.at = String(data.at);
  }, [data]);

  const count = data?.strokes.length ?? 0;
  const summary = data
    ? `${count} ${count === 1 ? 'stroke' : 'strokes'} on the mural at event ${data.at}, ${data.state}`
    : 'Loading…';
  return (
    <AtPanel id="mural-at-heading" title="The mural" query={mural}>
      <p className="mt-2 text-sm text-stone-700 dark:text-stone-300" data-testid="mural-at-summary">
        {summary}
      </p>
      <canvas
        ref={canvasRef}
        data-testid="mural-at-canvas"
        role="img"
        aria-label={`The mural at event ${data?.at ?? at}`}
        className="mt-3 aspect-[2/1] w-full rounded-lg border border-stone-200 bg-white dark:border-stone-700"
      />
    </AtPanel>
  );
}
