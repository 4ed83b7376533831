const SKELETONS = 8;

export function GallerySkeleton() {
  return (
    <div role="status" aria-live="polite">
      <p className="mb-6 text-center text-lg font-medium text-amber-700 dark:text-amber-300">
        Loading amazing artwork, stories, and media...
      </p>
      <div className="grid grid-cols-1 gap-6 sm:grid-cols-2 lg:grid-cols-3 xl:grid-cols-4" aria-hidden="true">
        {Array.from({ length: SKELETONS }, (_, index) => (
          <div key={index} data-testid="gallery-skeleton" className="card animate-pulse overflow-hidden">
            <div className="aspect-[4/3] bg-amber-100 dark:bg-stone-800" />
            <div className="space-y-2 p-4">
              <div className="h-5 w-3/4 rounded bg-amber-100 dark:bg-stone-800" />
              <div className="h-4 w-1/2 rounded bg-amber-100 dark:bg-stone-800" />
            </div>
          </div>
        ))}
      </div>
    </div>
  );
}
