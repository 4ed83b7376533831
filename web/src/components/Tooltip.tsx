import { cloneElement, useEffect, useId, useLayoutEffect, useRef, useState, type ReactElement } from 'react';
import { createPortal } from 'react-dom';

/** Hover waits this long before a tooltip opens (spec §9). */
export const TOOLTIP_DELAY_MS = 700;
/** Within this long after one tooltip closed, the next opens at once (spec §9). */
export const TOOLTIP_SKIP_DELAY_MS = 300;

let lastClosedAt = -Infinity;

interface TooltipProps {
  /** The text shown; for icon-only buttons, the same words as the button's aria-label. */
  label: string;
  /** One focusable element (a button or link). */
  children: ReactElement<{ 'aria-describedby'?: string; 'aria-label'?: string }>;
  side?: 'top' | 'bottom';
}

interface Position {
  left: number;
  top: number;
}

/**
 * A small text tooltip for icon-only controls. Hover opens it after 700 ms (at once when another
 * closed less than 300 ms ago); keyboard focus opens it at once; Escape, blur, leaving or pressing close it.
 */
export function Tooltip({ label, children, side = 'top' }: TooltipProps) {
  const id = useId();
  const anchor = useRef<HTMLSpanElement>(null);
  const timer = useRef<ReturnType<typeof setTimeout>>(undefined);
  const bubble = useRef<HTMLSpanElement>(null);
  const [position, setPosition] = useState<Position | null>(null);
  const isOpen = useRef(false);
  // When the text repeats the control's own name, describing it again would only make it read twice.
  const describes = !children.props['aria-label']?.includes(label);

  const show = () => {
    const rect = anchor.current?.getBoundingClientRect();
    if (!rect) return;
    isOpen.current = true;
    setPosition({ left: rect.left + rect.width / 2, top: side === 'top' ? rect.top - 8 : rect.bottom + 8 });
  };
  const open = (delayed: boolean) => {
    clearTimeout(timer.current);
    if (!delayed || performance.now() - lastClosedAt < TOOLTIP_SKIP_DELAY_MS) show();
    else timer.current = setTimeout(show, TOOLTIP_DELAY_MS);
  };
  const close = () => {
    clearTimeout(timer.current);
    if (isOpen.current) lastClosedAt = performance.now();
    isOpen.current = false;
    setPosition(null);
  };

  useEffect(() => () => clearTimeout(timer.current), []);
  // Keep the bubble inside the viewport (the menu toggle sits at the screen's edge on phones).
  useLayoutEffect(() => {
    const element = bubble.current;
    if (!position || !element) return;
    const rect = element.getBoundingClientRect();
    const margin = 8;
    const shift = Math.max(margin - rect.left, Math.min(0, window.innerWidth - margin - rect.right));
    if (shift !== 0) element.style.left = `${position.left + shift}px`;
  }, [position]);
  useEffect(() => {
    if (!position) return;
    const onKey = (event: KeyboardEvent) => event.key === 'Escape' && close();
    window.addEventListener('keydown', onKey);
    window.addEventListener('scroll', close, { passive: true, capture: true });
    return () => {
      window.removeEventListener('keydown', onKey);
      window.removeEventListener('scroll', close, { capture: true });
    };
  }, [position]);

  return (
    <span
      ref={anchor}
      className="inline-flex"
      onPointerEnter={(event) => event.pointerType === 'mouse' && open(true)}
      onPointerLeave={close}
      onPointerDown={close}
      onFocus={(event) => event.target.matches(':focus-visible') && open(false)}
      onBlur={close}
    >
      {cloneElement(children, { 'aria-describedby': position && describes ? id : undefined })}
      {position &&
        createPortal(
          <span
            ref={bubble}
            id={id}
            role="tooltip"
            style={{ left: position.left, top: position.top }}
            className={`pointer-events-none fixed z-[110] max-w-xs -translate-x-1/2 rounded-lg bg-stone-900 px-2.5 py-1 text-sm font-medium whitespace-nowrap text-white shadow-lg dark:bg-amber-50 dark:text-stone-900 ${
              side === 'top' ? '-translate-y-full' : ''
            }`}
          >
            {label}
          </span>,
          document.body,
        )}
    </span>
  );
}
