import { useEffect, useId, type ReactNode } from 'react';

interface ModalProps {
  title: ReactNode;
  children: ReactNode;
  /** Extra classes for the panel (width, colours). */
  className?: string;
  /** Overlay behind the panel; the gate's modals hide the site completely. */
  opaque?: boolean;
}

/** A blocking dialog: no close on Escape or backdrop, because every modal here needs an answer. */
export function Modal({ title, children, className = '', opaque = false }: ModalProps) {
  const titleId = useId();

  useEffect(() => {
    const previous = document.body.style.overflow;
    document.body.style.overflow = 'hidden';
    return () => {
      document.body.style.overflow = previous;
    };
  }, []);

  return (
    <div
      className={`fixed inset-0 z-50 flex items-center justify-center overflow-y-auto p-4 ${
        opaque ? 'bg-amber-50 dark:bg-stone-950' : 'bg-stone-950/60 backdrop-blur-sm'
      }`}
    >
      <div
        role="dialog"
        aria-modal="true"
        aria-labelledby={titleId}
        className={`card relative my-auto w-full max-w-lg p-6 shadow-2xl sm:p-8 ${className}`}
      >
        <h2 id={titleId} className="font-display text-2xl font-bold text-stone-900 sm:text-3xl dark:text-amber-50">
          {title}
        </h2>
        {children}
      </div>
    </div>
  );
}
