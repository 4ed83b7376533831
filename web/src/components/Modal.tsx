import { useEffect, useId, useRef, type KeyboardEvent, type ReactNode } from 'react';

interface ModalProps {
  title: ReactNode;
  children: ReactNode;
  /** Extra classes for the panel (width, colours). */
  className?: string;
  /** Overlay behind the panel; the gate's modals hide the site completely. */
  opaque?: boolean;
}

const FOCUSABLE =
  'a[href], button:not([disabled]), input:not([disabled]), textarea:not([disabled]), select:not([disabled]), [tabindex]:not([tabindex="-1"])';

/**
 * A blocking dialog: no close on Escape or backdrop, because every modal here needs an answer.
 * Focus moves into it and Tab cycles inside it until it is answered.
 */
export function Modal({ title, children, className = '', opaque = false }: ModalProps) {
  const titleId = useId();
  const panel = useRef<HTMLDivElement>(null);

  useEffect(() => {
    const previous = document.body.style.overflow;
    document.body.style.overflow = 'hidden';
    const element = panel.current;
    if (element && !element.contains(document.activeElement)) {
      (element.querySelector<HTMLElement>('[autofocus]') ?? element).focus();
    }
    return () => {
      document.body.style.overflow = previous;
    };
  }, []);

  const trapTab = (event: KeyboardEvent<HTMLDivElement>) => {
    if (event.key !== 'Tab' || !panel.current) return;
    const focusable = [...panel.current.querySelectorAll<HTMLElement>(FOCUSABLE)];
    const first = focusable[0];
    const last = focusable.at(-1);
    if (!first || !last) return event.preventDefault();
    const active = document.activeElement;
    if (event.shiftKey && (active === first || active === panel.current)) {
      event.preventDefault();
      last.focus();
    } else if (!event.shiftKey && active === last) {
      event.preventDefault();
      first.focus();
    }
  };

  return (
    <div
      className={`fixed inset-0 z-50 flex items-center justify-center overflow-y-auto p-4 ${
        opaque ? 'bg-amber-50 dark:bg-stone-950' : 'bg-stone-950/60 backdrop-blur-sm'
      }`}
    >
      <div
        ref={panel}
        role="dialog"
        aria-modal="true"
        aria-labelledby={titleId}
        tabIndex={-1}
        onKeyDown={trapTab}
        className={`card relative my-auto w-full p-6 shadow-2xl outline-none sm:p-8 ${className.includes('max-w-') ? '' : 'max-w-lg'} ${className}`}
      >
        <h2 id={titleId} className="font-display text-2xl font-bold text-stone-900 sm:text-3xl dark:text-amber-50">
          {title}
        </h2>
        {children}
      </div>
    </div>
  );
}
