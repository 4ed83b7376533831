import type { ReactNode } from 'react';

export function FormSection({ title, children }: { title: string; children: ReactNode }) {
  return (
    <section className="card space-y-5 p-6 sm:p-8">
      <h2 className="font-display text-2xl font-semibold text-stone-900 dark:text-amber-50">{title}</h2>
      {children}
    </section>
  );
}

export function PageHeader({ title, children }: { title: string; children: ReactNode }) {
  return (
    <header className="mb-10 text-center">
      <h1 className="font-display text-4xl font-bold text-stone-900 sm:text-5xl dark:text-amber-50">{title}</h1>
      <p className="mx-auto mt-4 max-w-xl text-lg text-stone-600 dark:text-stone-300">{children}</p>
    </header>
  );
}
