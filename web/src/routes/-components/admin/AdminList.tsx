import type { ReactNode } from 'react';
import type { UseQueryResult } from '@tanstack/react-query';
import { Spinner } from '../../../components/Spinner.tsx';

interface AdminListProps<T> {
  query: UseQueryResult<T[]>;
  empty: string;
  children: (item: T) => ReactNode;
}

/** Loading, error and empty states shared by the admin tabs. */
export function AdminList<T>({ query, empty, children }: AdminListProps<T>) {
  if (query.isPending) {
    return (
      <div className="flex justify-center py-16 text-amber-600" role="status" aria-label="Loading">
        <Spinner className="h-8 w-8" />
      </div>
    );
  }
  if (query.isError) {
    return (
      <p role="alert" className="card p-6 text-center text-rose-600 dark:text-rose-400">
        {query.error.message}
      </p>
    );
  }
  if (query.data.length === 0)
    return <p className="card p-10 text-center text-stone-500 dark:text-stone-400">{empty}</p>;
  return <ul className="space-y-4">{query.data.map(children)}</ul>;
}
