import { useEffect, useRef, useState, useSyncExternalStore, type PointerEvent } from 'react';
import { CloseIcon } from './icons.tsx';

export interface ToastInput {
  title: string;
  description?: string;
  variant?: 'default' | 'destructive';
}

interface ToastEntry extends ToastInput {
  id: number;
}

/** Spec §9: one toast at a time, shown 5000 ms, swiped away to the right past 50 px, F8 focuses them. */
export const TOAST_DISPLAY_MS = 5000;
export const TOAST_SWIPE_THRESHOLD_PX = 50;
const HOTKEY = 'F8';

const listeners = new Set<() => void>();
let current: ToastEntry | null = null;
let nextId = 1;

function emit() {
  for (const listener of listeners) listener();
}

export function dismissToast(): void {
  current = null;
  emit();
}

/** Shows a toast; only one is visible at a time, so a new one replaces the last. */
export function toast(input: ToastInput): void {
  current = { ...input, id: nextId++ };
  emit();
}

function subscribe(listener: () => void) {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export function Toaster() {
  const entry = useSyncExternalStore(subscribe, () => current);
  const region = useRef<HTMLElement>(null);

  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if (event.key !== HOTKEY) return;
      event.preventDefault();
      region.current?.focus();
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, []);

  return (
    <section
      ref={region}
      tabIndex={-1}
      aria-label={`Notifications (${HOTKEY})`}
      className="pointer-events-none fixed right-0 bottom-0 z-[100] w-full max-w-[420px] p-4 outline-none focus-visible:outline-none"
    >
      <ol className="flex flex-col">{entry && <Toast key={entry.id} entry={entry} />}</ol>
    </section>
  );
}

/** One toast: closes itself after 5 s (paused while hovered or focused), or when swiped right. */
function Toast({ entry }: { entry: ToastEntry }) {
  const [paused, setPaused] = useState(false);
  const [offset, setOffset] = useState(0);
  const remaining = useRef(TOAST_DISPLAY_MS);
  const swipe = useRef<{ pointerId: number; startX: number } | null>(null);

  useEffect(() => {
    if (paused) return;
    const startedAt = Date.now();
    const timer = setTimeout(dismissToast, remaining.current);
    return () => {
      clearTimeout(timer);
      remaining.current = Math.max(0, remaining.current - (Date.now() - startedAt));
    };
  }, [paused]);

  const onPointerDown = (event: PointerEvent<HTMLLIElement>) => {
    if (event.button !== 0 || (event.target as Element).closest('button')) return;
    swipe.current = { pointerId: event.pointerId, startX: event.clientX };
    event.currentTarget.setPointerCapture(event.pointerId);
  };
  const onPointerMove = (event: PointerEvent<HTMLLIElement>) => {
    if (swipe.current?.pointerId !== event.pointerId) return;
    // Only to the right; a pull to the left just resists.
    setOffset(Math.max(0, event.clientX - swipe.current.startX));
  };
  const onPointerEnd = (event: PointerEvent<HTMLLIElement>) => {
    if (swipe.current?.pointerId !== event.pointerId) return;
    const distance = event.clientX - swipe.current.startX;
    swipe.current = null;
    if (event.type === 'pointerup' && distance > TOAST_SWIPE_THRESHOLD_PX) dismissToast();
    else setOffset(0);
  };

  const destructive = entry.variant === 'destructive';
  const swiping = swipe.current !== null;
  return (
    <li
      role={destructive ? 'alert' : 'status'}
      aria-atomic="true"
      tabIndex={0}
      onPointerEnter={() => setPaused(true)}
      onPointerLeave={() => setPaused(false)}
      onFocus={() => setPaused(true)}
      onBlur={() => setPaused(false)}
      onKeyDown={(event) => event.key === 'Escape' && dismissToast()}
      onPointerDown={onPointerDown}
      onPointerMove={onPointerMove}
      onPointerUp={onPointerEnd}
      onPointerCancel={onPointerEnd}
      style={{
        transform: offset ? `translateX(${offset}px)` : undefined,
        opacity: offset ? Math.max(0.3, 1 - offset / 200) : undefined,
      }}
      className={`animate-toast-in pointer-events-auto relative touch-pan-y rounded-2xl border p-4 pr-10 shadow-xl select-none motion-reduce:animate-none ${
        swiping ? '' : 'transition-[transform,opacity] duration-200'
      } ${
        destructive
          ? 'border-rose-300 bg-rose-700 text-white dark:border-rose-800 dark:bg-rose-800'
          : 'border-amber-200 bg-white text-stone-800 dark:border-stone-700 dark:bg-stone-900 dark:text-stone-100'
      }`}
    >
      <p className="font-semibold">{entry.title}</p>
      {entry.description && <p className="mt-1 text-sm">{entry.description}</p>}
      <button
        type="button"
        onClick={dismissToast}
        aria-label="Close notification"
        className="absolute top-2 right-2 rounded-full p-1.5 opacity-80 transition hover:opacity-100"
      >
        <CloseIcon className="h-4 w-4" />
      </button>
    </li>
  );
}
