import { lazy, Suspense, useEffect, useState } from 'react';
import { createStore, useStore } from '../lib/store.ts';

export interface ToastInput {
  title: string;
  description?: string;
  variant?: 'default' | 'destructive';
}

export interface ToastEntry extends ToastInput {
  id: number;
}

/** Spec §9: one toast at a time, shown 5000 ms, swiped away to the right past 50 px, F8 focuses them. */
export const TOAST_DISPLAY_MS = 5000;
export const TOAST_SWIPE_THRESHOLD_PX = 50;

export const onScreen = createStore<ToastEntry | null>(null);
let nextId = 1;

/** Closes the toast on screen, or only the one with this id when it is still the one on screen. */
export function dismissToast(id?: number): void {
  if (id !== undefined && onScreen.get()?.id !== id) return;
  onScreen.set(null);
}

/** Shows a toast; only one is visible at a time, so a new one replaces the last. */
export function toast(input: ToastInput): void {
  onScreen.set({ ...input, id: nextId++ });
}

// Radix's toast is a tenth of the first page's script: it loads with the first toast (decision 109).
const ToastRegion = lazy(() =>
  import('./ToastRegion.tsx').then(
    (module) => ({ default: module.ToastRegion }),
    // offline, or a redeploy took the file away: the words still show, without the swipe
    () => ({ default: PlainToast }),
  ),
);

/** The toasts' region, loaded once the first toast is asked for and kept from then on. */
export function Toaster() {
  const entry = useStore(onScreen);
  const [needed, setNeeded] = useState(false);
  useEffect(() => {
    if (entry) setNeeded(true);
  }, [entry]);
  if (!needed && !entry) return null;
  return (
    <Suspense fallback={null}>
      <ToastRegion />
    </Suspense>
  );
}

function PlainToast() {
  const entry = useStore(onScreen);
  useEffect(() => {
    if (!entry) return;
    const timer = setTimeout(() => dismissToast(entry.id), TOAST_DISPLAY_MS);
    return () => clearTimeout(timer);
  }, [entry]);
  return (
    <div role={entry?.variant === 'destructive' ? 'alert' : 'status'} className="fixed right-4 bottom-4 z-[100]">
      {entry && (
        <p className="rounded-2xl bg-stone-900 p-4 text-white shadow-xl">
          {entry.title} {entry.description}
        </p>
      )}
    </div>
  );
}
