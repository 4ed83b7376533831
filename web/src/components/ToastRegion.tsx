import { useState } from 'react';
import * as ToastPrimitive from '@radix-ui/react-toast';
import { useStore } from '../lib/store.ts';
import { dismissToast, onScreen, TOAST_DISPLAY_MS, TOAST_SWIPE_THRESHOLD_PX, type ToastEntry } from './Toaster.tsx';
import { CloseIcon } from './icons.tsx';

const HOTKEY = 'F8';

/**
 * The region the toasts appear in; Radix keeps the timer (paused while hovered or focused), swipe and
 * hotkey. Each toast is its own live region, so Radix's second announcer is parked out of everyone's
 * way (decision 041): it would put another status, and a copy of the text, on the page for a second.
 */
export function ToastRegion() {
  const entry = useStore(onScreen);
  const [announcer, setAnnouncer] = useState<HTMLElement | null>(null);
  return (
    <ToastPrimitive.Provider
      duration={TOAST_DISPLAY_MS}
      swipeDirection="right"
      swipeThreshold={TOAST_SWIPE_THRESHOLD_PX}
      announcerContainer={announcer ?? undefined}
    >
      <div ref={setAnnouncer} hidden aria-hidden="true" />
      {entry && <Toast key={entry.id} entry={entry} />}
      <ToastPrimitive.Viewport
        hotkey={[HOTKEY]}
        // The hotkey focuses this list, so it carries the region's name as well.
        aria-label={`Notifications (${HOTKEY})`}
        className="pointer-events-none fixed right-0 bottom-0 z-[100] m-0 flex w-full max-w-[420px] list-none flex-col p-4 outline-none"
      />
    </ToastPrimitive.Provider>
  );
}

function Toast({ entry }: { entry: ToastEntry }) {
  const destructive = entry.variant === 'destructive';
  return (
    <ToastPrimitive.Root
      open
      onOpenChange={(open) => !open && dismissToast(entry.id)}
      type={destructive ? 'foreground' : 'background'}
      // The toast is its own live region, as before.
      role={destructive ? 'alert' : 'status'}
      aria-atomic="true"
      // Vertical pans still scroll the page on a phone; the swipe is horizontal.
      style={{ touchAction: 'pan-y' }}
      className={`animate-toast-in pointer-events-auto relative rounded-2xl border p-4 pr-10 shadow-xl transition-[translate,opacity] duration-200 motion-reduce:animate-none data-[swipe=end]:translate-x-[var(--radix-toast-swipe-end-x)] data-[swipe=end]:opacity-0 data-[swipe=move]:translate-x-[var(--radix-toast-swipe-move-x)] data-[swipe=move]:opacity-80 data-[swipe=move]:transition-none ${
        destructive
          ? 'border-rose-300 bg-rose-700 text-white dark:border-rose-800 dark:bg-rose-800'
          : 'border-amber-200 bg-white text-stone-800 dark:border-stone-700 dark:bg-stone-900 dark:text-stone-100'
      }`}
    >
      {/* not copied into Radix's announcer */}
      <div data-radix-toast-announce-exclude="">
        <ToastPrimitive.Title className="font-semibold">{entry.title}</ToastPrimitive.Title>
        {entry.description && (
          <ToastPrimitive.Description className="mt-1 text-sm">{entry.description}</ToastPrimitive.Description>
        )}
      </div>
      <ToastPrimitive.Close
        aria-label="Close notification"
        className="absolute top-2 right-2 rounded-full p-1.5 opacity-80 transition hover:opacity-100"
      >
        <CloseIcon className="h-4 w-4" />
      </ToastPrimitive.Close>
    </ToastPrimitive.Root>
  );
}
