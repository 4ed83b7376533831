import type { ReactNode } from 'react';
import { Link } from '@tanstack/react-router';
import { SparklesIcon } from './icons.tsx';

interface ComingSoonProps {
  title: string;
  children: ReactNode;
}

/** Placeholder for screens that arrive in a later update. */
export function ComingSoon({ title, children }: ComingSoonProps) {
  return (
    <div className="mx-auto max-w-2xl px-4 py-20 text-center">
      <span className="mx-auto flex h-16 w-16 items-center justify-center rounded-full bg-gradient-to-br from-amber-400 to-rose-500 text-white shadow-lg">
        <SparklesIcon className="h-8 w-8" />
      </span>
      <h1 className="mt-6 font-display text-4xl font-bold text-stone-900 dark:text-amber-50">{title}</h1>
      <p className="mt-4 text-lg text-stone-600 dark:text-stone-400">{children}</p>
      <Link to="/gallery" className="btn-primary mt-8">
        Back to Gallery
      </Link>
    </div>
  );
}
