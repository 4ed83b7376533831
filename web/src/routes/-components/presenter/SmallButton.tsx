import type { ReactNode } from 'react';

/** A list row's action ("Show now", "Put next"), big enough for a thumb. */
export function SmallButton({
  onClick,
  disabled,
  children,
}: {
  onClick: () => void;
  disabled?: boolean;
  children: ReactNode;
}) {
  return (
    <button
      type="button"
      disabled={disabled}
      onClick={onClick}
      className="min-h-11 shrink-0 rounded-lg border border-stone-300 px-3 text-sm font-semibold text-stone-700 active:scale-95 disabled:opacity-40 dark:border-stone-700 dark:text-stone-200"
    >
      {children}
    </button>
  );
}
