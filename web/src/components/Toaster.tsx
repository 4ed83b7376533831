import { useEffect, useRef, useSyncExternalStore } from 'react';

export interface ToastInput {
  title: string;
  description?: string;
  variant?: 'default' | 'destructive';
}

interface ToastEntry extends ToastInput {
  id: number;
}

const DISPLAY_MS = 5000;
const listeners = new Set<() => void>();
let current: ToastEntry | null = null;
let nextId = 1;
let timer: ReturnType<typeof setTimeout> | undefined;

function emit() {
  for (const listener of listeners) listener();
}

export function dismissToast(): void {
  clearTimeout(timer);
  current = null;
  emit();
}

/** Shows a toast; only one is visible at a time, so a new one replaces the last. */
export function toast(input: ToastInput): void {
  clearTimeout(timer);
  current = { ...input, id: nextId++ };
  timer = setTimeout(dismissToast, DISPLAY_MS);
  emit();
}

function subscribe(listener: () => void) {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export function Toaster() {
  const entry = useSyncExternalStore(subscribe, () => current);
  const region = useRef<HTMLOListElement>(null);

  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if (event.key === 'F8') region.current?.focus();
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, []);

  const destructive = entry?.variant === 'destructive';
  return (
    <ol
      ref={region}
      tabIndex={-1}
      aria-label="Notifications (F8)"
      className="pointer-events-none fixed right-0 bottom-0 z-[100] flex w-full max-w-[420px] flex-col p-4 outline-none"
    >
      {entry && (
        <li
          key={entry.id}
          role={destructive ? 'alert' : 'status'}
          aria-live={destructive ? 'assertive' : 'polite'}
          className={`animate-toast-in pointer-events-auto relative rounded-2xl border p-4 pr-10 shadow-xl ${
            destructive
              ? 'border-rose-300 bg-rose-600 text-white dark:border-rose-800 dark:bg-rose-800'
              : 'border-amber-200 bg-white text-stone-800 dark:border-stone-700 dark:bg-stone-900 dark:text-stone-100'
          }`}
        >
          <p className="font-semibold">{entry.title}</p>
          {entry.description && <p className="mt-1 text-sm opacity-90">{entry.description}</p>}
          <button
            type="button"
            onClick={dismissToast}
            aria-label="Close notification"
            className="absolute top-2 right-2 rounded-full p-1.5 opacity-70 transition hover:opacity-100"
          >
            <svg viewBox="0 0 24 24" className="h-4 w-4" fill="none" stroke="currentColor" strokeWidth="2" aria-hidden="true">
              <path d="M6 6l12 12M18 6L6 18" strokeLinecap="round" />
            </svg>
          </button>
        </li>
      )}
    </ol>
  );
}
