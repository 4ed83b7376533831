import { useCallback, useEffect, useRef, useState, type PointerEvent as ReactPointerEvent } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { createFileRoute } from '@tanstack/react-router';
import {
  MURAL_HEIGHT,
  MURAL_MAX_POINTS,
  MURAL_WIDTH,
  type MuralStroke,
  type MuralTool,
} from '../../../contract/mural.ts';
import { toast } from '../components/Toaster.tsx';
import { Spinner } from '../components/Spinner.tsx';
import { ApiError } from '../lib/api.ts';
import { OPACITY, PALETTE, SIZE } from '../drawing/tools.ts';
import { getSession, useSession } from '../lib/session.ts';
import { strokeAt } from '../mural/hit.ts';
import type { Paint } from '../mural/model.ts';
import { OverlaySurface } from '../mural/surface.ts';
import { useLiveMural } from '../mural/useLiveMural.ts';
import {
  muralAction,
  muralKeys,
  muralQueryOptions,
  removeStroke,
  sendStroke,
  type MuralStrokeInput,
} from '../queries/mural.ts';

export const Route = createFileRoute('/mural')({
  loader: ({ context }) => {
    if (getSession().signedIn) void context.queryClient.prefetchQuery(muralQueryOptions());
  },
  component: MuralPage,
});

interface Pending {
  stroke: MuralStrokeInput;
  /** once the server took it */
  id?: number;
}

/** Points closer than this (canvas px) to the last one add nothing but weight. */
const MIN_STEP = 1.5;
const round = (n: number) => Math.round(n * 10) / 10;

/**
 * One 1600 × 800 canvas that everyone draws on at once (CONTRACT §8). The mural is painted stroke by
 * stroke as strokes arrive; one's own stroke shows at once on an overlay while it is drawn and on its
 * way, and moves onto the mural when the mural has it. `?screen` shows the canvas alone, for the big
 * screen.
 */
function MuralPage() {
  const { admin } = useSession();
  const queryClient = useQueryClient();
  const screen = typeof window !== 'undefined' && new URLSearchParams(window.location.search).has('screen');

  const overlayRef = useRef<HTMLCanvasElement>(null);
  const overlay = useRef<OverlaySurface>(null);
  const pending = useRef<Pending[]>([]);
  const drawing = useRef<{ pointerId: number; stroke: MuralStrokeInput } | null>(null);
  const frame = useRef<number | null>(null);

  // what the page does once the mural has painted a change (set below, once its helpers exist)
  const afterPaint = useRef<(change: Paint) => void>(() => {});
  const { baseRef, model, paint, snapshot } = useLiveMural((change) => afterPaint.current(change));

  const [tool, setTool] = useState<MuralTool>('brush');
  const [color, setColor] = useState<string>(PALETTE[0].hex);
  const [size, setSize] = useState<number>(SIZE.initial);
  const [opacity, setOpacity] = useState<number>(OPACITY.initial);
  // an admin's removal mode: a tap on the canvas removes the stroke under it instead of drawing
  const [removeMode, setRemoving] = useState(false);
  const [removed, setRemoved] = useState('');
  // what the controls show: the mural's state and whether there is anything to undo
  const [ui, setUi] = useState({ state: model.state, artworkId: model.artworkId, own: 0, busy: false });
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
    drawing.current = { pointerId: event.pointerId, stroke: { tool, color, size, opacity, points: [toCanvas(event)] } };
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

  const act = async (action: 'lock' | 'unlock' | 'freeze') => {
    if (action === 'freeze' && !window.confirm('Freeze the mural? It becomes an artwork awaiting approval.')) return;
    setUi((old) => ({ ...old, busy: true }));
    try {
      const answer = await muralAction(action);
      if (action === 'freeze') {
        toast({ title: 'The mural is frozen', description: 'Its picture is waiting in the admin queue.' });
      }
      if (answer.artworkId) model.artworkId = answer.artworkId;
    } catch (error) {
      toast({
        title: `Could not ${action} the mural`,
        description: error instanceof ApiError ? error.message : 'Please try again.',
        variant: 'destructive',
      });
    } finally {
      setUi((old) => ({ ...old, busy: false }));
    }
  };

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
        ref={baseRef}
        data-testid="mural-canvas"
        aria-label="The group mural"
        role="img"
        className="absolute inset-0 h-full w-full"
      />
      <canvas
        ref={overlayRef}
        data-testid="mural-draw"
        aria-hidden="true"
        className={`absolute inset-0 h-full w-full touch-none select-none ${
          removing ? 'cursor-pointer' : open && !screen ? 'cursor-crosshair' : ''
        }`}
        onPointerDown={screen ? undefined : onPointerDown}
        onPointerMove={onPointerMove}
        onPointerUp={onPointerEnd}
        onPointerCancel={onPointerEnd}
        onLostPointerCapture={onPointerEnd}
      />
      {snapshot.isPending && (
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
        <StateBadge state={ui.state} />
      </div>
      {canvases}
      {ui.state === 'frozen' && (
        <p className="mt-3 text-center text-stone-700 dark:text-stone-300">
          The mural is finished: it is now an artwork on its way to the gallery.
        </p>
      )}
      <div
        className={`mt-3 flex flex-col gap-3 lg:flex-row lg:items-center lg:justify-between ${ui.state === 'frozen' ? 'hidden' : ''}`}
      >
        <div className="flex flex-wrap items-center gap-2">
          <div
            role="group"
            aria-label="Tool"
            className="flex overflow-hidden rounded-lg border border-stone-300 dark:border-stone-600"
          >
            {(['brush', 'eraser'] as const).map((t) => (
              <button
                key={t}
                type="button"
                aria-pressed={tool === t}
                onClick={() => setTool(t)}
                className={`px-3 py-2 text-sm font-medium ${
                  tool === t
                    ? 'bg-rose-500 text-white'
                    : 'bg-white text-stone-700 hover:bg-stone-100 dark:bg-stone-800 dark:text-stone-200 dark:hover:bg-stone-700'
                }`}
              >
                {t === 'brush' ? 'Brush' : 'Eraser'}
              </button>
            ))}
          </div>
          <button
            type="button"
            onClick={() => void undo()}
            disabled={ui.own === 0 || !open}
            className="rounded-lg border border-stone-300 bg-white px-3 py-2 text-sm font-medium text-stone-700 hover:bg-stone-100 disabled:opacity-40 dark:border-stone-600 dark:bg-stone-800 dark:text-stone-200 dark:hover:bg-stone-700"
          >
            Undo
          </button>
          <Slider label="Size" range={SIZE} value={size} onChange={setSize} unit=" px" className="w-24" />
          <Slider
            label="Opacity"
            range={OPACITY}
            value={opacity}
            onChange={setOpacity}
            unit="%"
            disabled={tool === 'eraser'}
            className="w-20"
          />
        </div>
        <div role="group" aria-label="Palette" className="grid grid-cols-12 gap-1.5 sm:flex sm:flex-wrap">
          {PALETTE.map(({ name, hex }) => (
            <button
              key={hex}
              type="button"
              aria-label={name}
              title={name}
              aria-pressed={color === hex}
              onClick={() => {
                setColor(hex);
                setTool('brush');
              }}
              style={{ backgroundColor: hex }}
              className={`aspect-square w-full rounded-full border border-black/10 shadow-sm sm:h-7 sm:w-7 dark:border-white/40 ${
                color === hex ? 'ring-2 ring-amber-500 ring-offset-2 dark:ring-offset-stone-900' : ''
              }`}
            />
          ))}
        </div>
      </div>
      {admin && (
        <div className="mt-3 flex flex-wrap items-center gap-2 rounded-lg border border-amber-300 bg-amber-50 p-2 dark:border-amber-700 dark:bg-stone-800">
          <span className="text-sm font-semibold text-amber-800 dark:text-amber-300">Admin</span>
          {ui.state === 'open' && <AdminButton label="Lock" busy={ui.busy} onClick={() => void act('lock')} />}
          {ui.state === 'locked' && <AdminButton label="Unlock" busy={ui.busy} onClick={() => void act('unlock')} />}
          {ui.state !== 'frozen' && <AdminButton label="Freeze" busy={ui.busy} onClick={() => void act('freeze')} />}
          {ui.state !== 'frozen' && (
            <>
              <button
                type="button"
                aria-pressed={removing}
                onClick={() => setRemoving((on) => !on)}
                className={`rounded-lg border px-3 py-1.5 text-sm font-semibold ${
                  removing
                    ? 'border-rose-600 bg-rose-600 text-white'
                    : 'border-amber-500 bg-white text-amber-800 dark:bg-stone-900 dark:text-amber-300'
                }`}
              >
                Remove strokes
              </button>
              <button
                type="button"
                onClick={() => void removeAny([...model.strokes.values()].at(-1))}
                className="rounded-lg border border-amber-500 bg-white px-3 py-1.5 text-sm font-semibold text-amber-800 disabled:opacity-40 dark:bg-stone-900 dark:text-amber-300"
              >
                Remove newest stroke
              </button>
              <span role="status" className="text-sm text-stone-700 dark:text-stone-300">
                {removing ? `Tap a stroke to remove it. ${removed}` : removed}
              </span>
            </>
          )}
          {ui.state === 'frozen' && ui.artworkId !== null && (
            <span className="text-sm text-stone-700 dark:text-stone-300">Artwork #{ui.artworkId} is in the queue.</span>
          )}
          <a
            href="/mural?screen"
            target="_blank"
            rel="noreferrer"
            className="ml-auto text-sm text-amber-800 underline dark:text-amber-300"
          >
            Big screen
          </a>
        </div>
      )}
    </div>
  );
}

function StateBadge({ state }: { state: 'open' | 'locked' | 'frozen' }) {
  const text = { open: 'Open: draw away', locked: 'Locked for now', frozen: 'Frozen: it is an artwork now' }[state];
  const tone = {
    open: 'bg-green-100 text-green-800 dark:bg-green-900/50 dark:text-green-200',
    locked: 'bg-amber-100 text-amber-800 dark:bg-amber-900/50 dark:text-amber-200',
    frozen: 'bg-sky-100 text-sky-800 dark:bg-sky-900/50 dark:text-sky-200',
  }[state];
  return (
    <span role="status" data-testid="mural-state" className={`rounded-full px-3 py-1 text-sm font-medium ${tone}`}>
      {text}
    </span>
  );
}

function AdminButton({ label, busy, onClick }: { label: string; busy: boolean; onClick: () => void }) {
  return (
    <button
      type="button"
      disabled={busy}
      onClick={onClick}
      className="rounded-lg bg-amber-500 px-3 py-1.5 text-sm font-semibold text-white hover:bg-amber-600 disabled:opacity-50"
    >
      {label}
    </button>
  );
}

interface SliderProps {
  label: string;
  range: { min: number; max: number; step: number };
  value: number;
  onChange: (value: number) => void;
  unit: string;
  disabled?: boolean;
  className: string;
}

/** A toolbar slider: its label, the range, and the value with its unit. */
function Slider({ label, range, value, onChange, unit, disabled, className }: SliderProps) {
  return (
    <label className="flex items-center gap-2 text-sm text-stone-700 dark:text-stone-300">
      {label}
      <input
        type="range"
        min={range.min}
        max={range.max}
        step={range.step}
        value={value}
        disabled={disabled}
        aria-valuetext={`${value}${unit}`}
        onChange={(e) => onChange(Number(e.target.value))}
        className={`${className} accent-rose-500`}
      />
      <span className="w-10 text-xs tabular-nums">
        {value}
        {unit}
      </span>
    </label>
  );
}
