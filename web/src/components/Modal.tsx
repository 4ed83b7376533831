import type { ReactNode } from 'react';
import * as Dialog from '@radix-ui/react-dialog';

interface ModalProps {
  title: ReactNode;
  children: ReactNode;
  /** Extra classes for the panel (width, colours). */
  className?: string;
  /** Overlay behind the panel; the gate's modals hide the site completely. */
  opaque?: boolean;
}

const keepOpen = (event: Event) => event.preventDefault();

/**
 * A blocking dialog: no close on Escape or backdrop, because every modal here needs an answer.
 * Radix keeps focus inside it, hides the page from assistive technology and stops it scrolling.
 */
export function Modal({ title, children, className = '', opaque = false }: ModalProps) {
  return (
    <Dialog.Root open>
      <Dialog.Portal>
        <Dialog.Overlay
          className={`fixed inset-0 z-50 flex items-center justify-center overflow-y-auto p-4 ${
            opaque ? 'bg-amber-50 dark:bg-stone-950' : 'bg-stone-950/60 backdrop-blur-sm'
          }`}
        >
          <Dialog.Content
            // Every text inside describes it; naming one of them would leave out the rest.
            aria-describedby={undefined}
            onEscapeKeyDown={keepOpen}
            onPointerDownOutside={keepOpen}
            onInteractOutside={keepOpen}
            // Radix asks only when no control inside took focus (autoFocus): then the panel takes it, so a
            // reader starts at the title rather than at the first control.
            onOpenAutoFocus={(event) => {
              event.preventDefault();
              (event.currentTarget as HTMLElement).focus();
            }}
            className={`card relative my-auto w-full p-6 shadow-2xl outline-none sm:p-8 ${className.includes('max-w-') ? '' : 'max-w-lg'} ${className}`}
          >
            <Dialog.Title className="font-display text-2xl font-bold text-stone-900 sm:text-3xl dark:text-amber-50">
              {title}
            </Dialog.Title>
            {children}
          </Dialog.Content>
        </Dialog.Overlay>
      </Dialog.Portal>
    </Dialog.Root>
  );
}
