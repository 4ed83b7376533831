import type { ReactNode } from 'react';

/** A form control with its label above it. */
export function Labelled({ id, label, children }: { id: string; label: string; children: ReactNode }) {
  return (
    <div>
      <label htmlFor={id} className="field-label">
        {label}
      </label>
      {children}
    </div>
  );
}

/** Why a query failed, read out as it appears; nothing while it has not. */
export function QueryError({ error, className = 'mt-4' }: { error: Error | null; className?: string }) {
  if (!error) return null;
  return (
    <p role="alert" className={`${className} text-sm text-rose-700 dark:text-rose-300`}>
      {error.message}
    </p>
  );
}

interface AtPanelProps {
  id: string;
  title: string;
  query: { isFetching: boolean; error: Error | null };
  children: ReactNode;
}

/** One panel of the time slider's view (the show, the mural): its heading, and its query's failure. */
export function AtPanel({ id, title, query, children }: AtPanelProps) {
  return (
    <section aria-labelledby={id} className="card p-5" aria-busy={query.isFetching}>
      <h3 id={id} className="font-display text-lg font-bold text-stone-900 dark:text-amber-50">
        {title}
      </h3>
      <QueryError error={query.error} className="mt-2" />
      {children}
    </section>
  );
}
