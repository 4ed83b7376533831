import { useState } from 'react';
import { createFileRoute } from '@tanstack/react-router';
import { Spinner } from '../components/Spinner.tsx';
import { OPACITY, PALETTE, SIZE } from '../drawing/tools.ts';
import { getSession, useSession } from '../lib/session.ts';
import { useMuralDrawing, type Pen } from '../mural/useMuralDrawing.ts';
import { muralQueryOptions } from '../queries/mural.ts';
import { MuralAdminBar } from './-components/mural/MuralAdminBar.tsx';
import { MuralStateBadge } from './-components/mural/MuralStateBadge.tsx';
import { MuralToolbar } from './-components/mural/MuralToolbar.tsx';

export const Route = createFileRoute('/mural')({
  loader: ({ context }) => {
    if (getSession().signedIn) void context.queryClient.prefetchQuery(muralQueryOptions());
  },
  component: MuralPage,
});

/**
 * One 1600 × 800 canvas that everyone draws on at once (CONTRACT §8): everyone's strokes appear live,
 * one's own at once while drawn (`useMuralDrawing`). `?screen` shows the canvas alone, for the big screen.
 */
function MuralPage() {
  const { admin } = useSession();
  const screen = typeof window !== 'undefined' && new URLSearchParams(window.location.search).has('screen');

  const [pen, setPenState] = useState<Pen>({
    tool: 'brush',
    color: PALETTE[0].hex,
    size: SIZE.initial,
    opacity: OPACITY.initial,
  });
  const setPen = (change: Partial<Pen>) => setPenState((old) => ({ ...old, ...change }));
  // an admin's removal mode: a tap on the canvas removes the stroke under it instead of drawing
  const [removeMode, setRemoving] = useState(false);
  const mural = useMuralDrawing(pen, removeMode);
  const { ui, removing, handlers } = mural;

  const open = ui.state === 'open';
  const canvases = (
    <div
      className={`relative mx-auto aspect-[2/1] overflow-hidden rounded-xl border border-stone-300 bg-white shadow-lg dark:border-stone-700 ${
        screen
          ? 'w-[min(100vw,200dvh)]'
          : admin
            ? 'w-full max-w-[min(100%,calc((100dvh-15rem)*2))]'
            : 'w-full max-w-[min(100%,calc((100dvh-11rem)*2))]'
      }`}
    >
      <canvas
        ref={mural.baseRef}
        data-testid="mural-canvas"
        aria-label="The group mural"
        role="img"
        className="absolute inset-0 h-full w-full"
      />
      <canvas
        ref={mural.overlayRef}
        data-testid="mural-draw"
        aria-hidden="true"
        className={`absolute inset-0 h-full w-full touch-none select-none ${
          removing ? 'cursor-pointer' : open && !screen ? 'cursor-crosshair' : ''
        }`}
        onPointerDown={screen ? undefined : handlers.onPointerDown}
        onPointerMove={handlers.onPointerMove}
        onPointerUp={handlers.onPointerEnd}
        onPointerCancel={handlers.onPointerEnd}
        onLostPointerCapture={handlers.onPointerEnd}
      />
      {mural.snapshot.isPending && (
        <div className="absolute inset-0 flex items-center justify-center">
          <Spinner className="h-10 w-10 text-amber-500" />
        </div>
      )}
    </div>
  );

  if (screen) return <div className="flex min-h-dvh items-center justify-center bg-stone-900 p-2">{canvases}</div>;

  return (
    <div className="mx-auto max-w-[1700px] px-2 py-3 sm:px-4">
      <div className="mb-2 flex flex-wrap items-center justify-between gap-2">
        <h1 className="text-xl font-bold text-stone-800 sm:text-2xl dark:text-stone-100">The group mural</h1>
        <MuralStateBadge state={ui.state} />
      </div>
      {canvases}
      {ui.state === 'frozen' && (
        <p className="mt-3 text-center text-stone-700 dark:text-stone-300">
          The mural is finished: it is now an artwork on its way to the gallery.
        </p>
      )}
      <MuralToolbar
        pen={pen}
        setPen={setPen}
        canUndo={ui.own > 0 && open}
        onUndo={() => void mural.undo()}
        hidden={ui.state === 'frozen'}
      />
      {admin && (
        <MuralAdminBar
          model={mural.model}
          state={ui.state}
          artworkId={ui.artworkId}
          removing={removing}
          removed={mural.removed}
          onToggleRemove={() => setRemoving((on) => !on)}
          onRemoveNewest={() => void mural.removeNewest()}
        />
      )}
    </div>
  );
}
