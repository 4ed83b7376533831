import type { ReactNode } from 'react';
import { ShieldIcon } from './icons.tsx';

/** The heading of a staff screen (admin panel, audit): the shield, the title and what the screen is for. */
export function StaffHeader({
  title,
  children,
  className = '',
}: {
  title: string;
  children: ReactNode;
  className?: string;
}) {
  return (
    <header className={`flex items-center gap-4 ${className}`}>
      <span className="flex h-12 w-12 shrink-0 items-center justify-center rounded-2xl bg-gradient-to-br from-stone-700 to-stone-900 text-amber-300 shadow-md">
        <ShieldIcon className="h-6 w-6" />
      </span>
      <div>
        <h1 className="font-display text-3xl font-bold text-stone-900 dark:text-amber-50">{title}</h1>
        <p className="text-stone-600 dark:text-stone-400">{children}</p>
      </div>
    </header>
  );
}
