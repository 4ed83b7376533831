import { ChevronLeftIcon, ChevronRightIcon } from '../../../components/icons.tsx';

const WINDOW = 5;

/** Up to five page numbers around the current page (spec §9). */
export function pageWindow(page: number, pageCount: number): number[] {
  const start = Math.max(1, Math.min(page - Math.floor(WINDOW / 2), pageCount - WINDOW + 1));
  const end = Math.min(pageCount, start + WINDOW - 1);
  return Array.from({ length: end - start + 1 }, (_, index) => start + index);
}

interface PaginationProps {
  page: number;
  pageCount: number;
  onPage: (page: number) => void;
}

const pageButton =
  'inline-flex h-10 min-w-10 items-center justify-center rounded-full px-3 font-semibold transition disabled:cursor-not-allowed disabled:opacity-40';

export function Pagination({ page, pageCount, onPage }: PaginationProps) {
  if (pageCount <= 1) return null;
  return (
    <nav aria-label="Pagination" className="mt-12 flex flex-wrap items-center justify-center gap-1 sm:gap-1.5">
      <button
        type="button"
        onClick={() => onPage(page - 1)}
        disabled={page <= 1}
        className={`${pageButton} btn-secondary px-3 sm:px-4`}
      >
        <ChevronLeftIcon className="h-4 w-4" /> <span className="sr-only sm:not-sr-only">Previous</span>
      </button>
      {pageWindow(page, pageCount).map((number) => (
        <button
          key={number}
          type="button"
          onClick={() => onPage(number)}
          aria-current={number === page ? 'page' : undefined}
          aria-label={`Page ${number}`}
          className={`${pageButton} ${
            number === page
              ? 'bg-gradient-to-r from-amber-500 to-rose-500 text-white shadow-md'
              : 'text-stone-600 hover:bg-amber-100 dark:text-stone-300 dark:hover:bg-stone-800'
          }`}
        >
          {number}
        </button>
      ))}
      <button
        type="button"
        onClick={() => onPage(page + 1)}
        disabled={page >= pageCount}
        className={`${pageButton} btn-secondary px-3 sm:px-4`}
      >
        <span className="sr-only sm:not-sr-only">Next</span> <ChevronRightIcon className="h-4 w-4" />
      </button>
    </nav>
  );
}
