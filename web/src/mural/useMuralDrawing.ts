import { useCallback, useEffect, useRef, useState, type PointerEvent as ReactPointerEvent } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import {
  MURAL_HEIGHT,
  MURAL_MAX_POINTS,
  MURAL_WIDTH,
  type MuralStroke,
  type MuralTool,
} from '../../../contract/mural.ts';
import { toast } from '../components/Toaster.tsx';
import { ApiError } from '../lib/api.ts';
import { muralKeys, removeStroke, sendStroke, type MuralStrokeInput } from '../queries/mural.ts';
import { strokeAt } from './hit.ts';
import type { Paint } from './model.ts';
import { OverlaySurface } from './surface.ts';
import { useLiveMural } from './useLiveMural.ts';

/** What the next stroke is drawn with. */
export interface Pen {
  tool: MuralTool;
  color: string;
  size: number;
  opacity: number;
}

interface Pending {
  stroke: MuralStrokeInput;
  /** once the server took it */
  id?: number;
}

/** Points closer than this (canvas px) to the last one add nothing but weight. */
const MIN_STEP = 1.5;
const round = (n: number) => Math.round(n * 10) / 10;

/**
 * Drawing on the live mural: the mural is painted stroke by stroke as strokes arrive; one's own stroke
 * shows at once on an overlay while it is drawn and on its way, and moves onto the mural when the
 * mural has it. In `removeMode` (an admin's) a tap removes the stroke under it instead of drawing.
 */
export function useMuralDrawing(pen: Pen, removeMode: boolean) {
  const queryClient = useQueryClient();
  const overlayRef = useRef<HTMLCanvasElement>(null);
  const overlay = useRef<OverlaySurface>(null);
  const pending = useRef<Pending[]>([]);
  const drawing = useRef<{ pointerId: number; stroke: MuralStrokeInput } | null>(null);
  const frame = useRef<number | null>(null);

  // what the page does once the mural has painted a change (set below, once its helpers exist)
  const afterPaint = useRef<(change: Paint) => void>(() => {});
  const { baseRef, model, paint, snapshot } = useLiveMural((change) => afterPaint.current(change));

  const [removed, setRemoved] = useState('');
  // what the controls show: the mural's state and whether there is anything to undo
  const [ui, setUi] = useState({ state: model.state, artworkId: model.artworkId, own: 0 });
  const refreshUi = useCallback(
    () =>
      setUi((old) => ({
        ...old,
        state: model.state,
        artworkId: model.artworkId,
        own: model.own().length + pending.current.length,
      })),
    [model],
  );

  const removing = removeMode && ui.state !== 'frozen';

  const paintOverlay = useCallback(() => {
    frame.current = null;
    const strokes = pending.current.map((p) => p.stroke);
    if (drawing.current) strokes.push(drawing.current.stroke);
    overlay.current?.paint(strokes);
  }, []);
  const scheduleOverlay = useCallback(() => {
    if (frame.current === null) frame.current = requestAnimationFrame(paintOverlay);
  }, [paintOverlay]);

  /** Own strokes the mural now holds leave the overlay. */
  const settlePending = useCallback(() => {
    const before = pending.current.length;
    pending.current = pending.current.filter((p) => p.id === undefined || !model.strokes.has(p.id));
    if (pending.current.length !== before) scheduleOverlay();
  }, [model, scheduleOverlay]);

  afterPaint.current = (change) => {
    if (change.kind === 'add') settlePending();
    if (change.kind === 'state' || change.kind === 'all' || change.stroke.authorId === model.authorId) refreshUi();
  };

  useEffect(() => {
    if (overlayRef.current) overlay.current = new OverlaySurface(overlayRef.current);
  }, []);

  useEffect(() => () => void (frame.current !== null && cancelAnimationFrame(frame.current)), []);

  const submit = useCallback(
    (stroke: MuralStrokeInput) => {
      const entry: Pending = { stroke };
      pending.current.push(entry);
      refreshUi();
      sendStroke(stroke).then(
        ({ id }) => {
          entry.id = id;
          settlePending();
        },
        (error: unknown) => {
          pending.current = pending.current.filter((p) => p !== entry);
          scheduleOverlay();
          refreshUi();
          const message = error instanceof ApiError ? error.message : 'Your stroke could not be sent.';
          toast({ title: 'Stroke not added', description: message, variant: 'destructive' });
          if (error instanceof ApiError && error.status === 409) {
            void queryClient.invalidateQueries({ queryKey: muralKeys.all });
          }
        },
      );
    },
    [queryClient, refreshUi, scheduleOverlay, settlePending],
  );

  const toCanvas = (event: { clientX: number; clientY: number }): [number, number] => {
    const rect = overlayRef.current!.getBoundingClientRect();
    const x = ((event.clientX - rect.left) * MURAL_WIDTH) / rect.width;
    const y = ((event.clientY - rect.top) * MURAL_HEIGHT) / rect.height;
    return [round(Math.min(MURAL_WIDTH, Math.max(0, x))), round(Math.min(MURAL_HEIGHT, Math.max(0, y)))];
  };

  const finish = () => {
    const current = drawing.current;
    drawing.current = null;
    if (current) submit(current.stroke);
    scheduleOverlay();
  };

  /** An admin removes anyone's stroke; everyone's mural drops it through `mural:stroke-removed`. */
  const removeAny = async (stroke: MuralStroke | undefined) => {
    if (!stroke) return setRemoved('No stroke there.');
    try {
      await removeStroke(stroke.id);
      paint(model.remove(stroke.id));
      setRemoved(`Stroke ${stroke.id} removed.`);
    } catch (error) {
      toast({
        title: 'Could not remove the stroke',
        description: error instanceof ApiError ? error.message : 'Please try again.',
        variant: 'destructive',
      });
    }
  };

  const onPointerDown = (event: ReactPointerEvent<HTMLCanvasElement>) => {
    if (removing) {
      // about 12 screen px of reach around the ink, whatever the canvas's scale: a fingertip on a phone
      const slack = (12 * MURAL_WIDTH) / event.currentTarget.getBoundingClientRect().width;
      void removeAny(strokeAt(model.strokes.values(), toCanvas(event), slack));
      return;
    }
    if (model.state !== 'open' || drawing.current || event.button > 0) return;
    event.preventDefault();
    event.currentTarget.setPointerCapture(event.pointerId);
    drawing.current = { pointerId: event.pointerId, stroke: { ...pen, points: [toCanvas(event)] } };
    scheduleOverlay();
  };

  const onPointerMove = (event: ReactPointerEvent<HTMLCanvasElement>) => {
    const current = drawing.current;
    if (!current || current.pointerId !== event.pointerId) return;
    const native = event.nativeEvent;
    const events = typeof native.getCoalescedEvents === 'function' ? native.getCoalescedEvents() : [];
    for (const e of events.length > 0 ? events : [native]) {
      const point = toCanvas(e);
      const points = current.stroke.points;
      const [lx, ly] = points.at(-1)!;
      if (Math.hypot(point[0] - lx, point[1] - ly) < MIN_STEP) continue;
      points.push(point);
      if (points.length >= MURAL_MAX_POINTS) {
        // a very long stroke goes as several, each within the limit, joined end to start
        submit(current.stroke);
        current.stroke = { ...current.stroke, points: [point] };
      }
    }
    scheduleOverlay();
  };

  const onPointerEnd = (event: ReactPointerEvent<HTMLCanvasElement>) => {
    if (drawing.current?.pointerId === event.pointerId) finish();
  };

  const undo = async () => {
    const last = model.own().at(-1);
    if (!last) return;
    try {
      await removeStroke(last.id);
      paint(model.remove(last.id));
    } catch (error) {
      toast({
        title: 'Could not undo',
        description: error instanceof ApiError ? error.message : 'Please try again.',
        variant: 'destructive',
      });
    }
  };

  return {
    baseRef,
    overlayRef,
    snapshot,
    model,
    ui,
    removing,
    removed,
    handlers: { onPointerDown, onPointerMove, onPointerEnd },
    undo,
    removeAny,
    removeNewest: () => removeAny([...model.strokes.values()].at(-1)),
  };
}
