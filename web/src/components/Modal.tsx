import { useId, useLayoutEffect, useRef, type ReactNode } from 'react';

interface ModalProps {
  title: ReactNode;
  children: ReactNode;
  /** Extra classes for the panel (width, colours). */
  className?: string;
  /** Backdrop behind the panel; the gate's modals hide the site completely. */
  opaque?: boolean;
}

/**
 * A blocking dialog, the platform's <dialog> shown modally (decision 041): the page behind is inert,
 * and no Escape or click outside closes it, because every modal here needs an answer. The element
 * marked `data-autofocus` takes focus when it opens, else the panel itself, so a reader starts at the title.
 */
export function Modal({ title, children, className = '', opaque = false }: ModalProps) {
  const titleId = useId();
  const dialog = useRef<HTMLDialogElement>(null);

  useLayoutEffect(() => {
    const element = dialog.current;
    if (!element) return;
    const open = () => {
      if (!element.isConnected || element.open) return;
      element.showModal();
      const marked = element.querySelector<HTMLElement>('[data-autofocus]');
      if (marked) return marked.focus();
      // The browser focused the first control, scrolling a tall panel down to it: the panel instead.
      element.focus();
      element.scrollTop = 0;
    };
    open();
    // closedby="none" refuses Escape; a browser without it may still close: then it opens again.
    element.addEventListener('close', open);
    // Set from script: the content security policy refuses the injected styles that libraries use.
    const previous = document.body.style.overflow;
    document.body.style.overflow = 'hidden';
    return () => {
      element.removeEventListener('close', open);
      document.body.style.overflow = previous;
    };
  }, []);

  return (
    <dialog
      ref={dialog}
      aria-labelledby={titleId}
      closedby="none"
      onCancel={(event) => event.preventDefault()}
      tabIndex={-1}
      className={`card m-auto max-h-[calc(100%-2rem)] w-[calc(100%-2rem)] overflow-y-auto p-6 text-stone-800 shadow-2xl outline-none sm:p-8 dark:text-stone-100 ${
        opaque
          ? 'backdrop:bg-amber-50 dark:backdrop:bg-stone-950'
          : 'backdrop:bg-stone-950/60 backdrop:backdrop-blur-sm'
      } ${className.includes('max-w-') ? '' : 'max-w-lg'} ${className}`}
    >
      <h2 id={titleId} className="font-display text-2xl font-bold text-stone-900 sm:text-3xl dark:text-amber-50">
        {title}
      </h2>
      {children}
    </dialog>
  );
}
