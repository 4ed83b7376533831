import { useCallback, useEffect } from 'react';
import { useQuery } from '@tanstack/react-query';
import { createFileRoute, Link } from '@tanstack/react-router';
import { galleryQueryOptions } from '../queries/gallery.ts';
import { tributeQueryOptions } from '../queries/tribute.ts';
import { getSession, useSession } from '../lib/session.ts';
import { gallerySearch } from '../lib/routeParams.ts';
import { takeGalleryScroll } from '../lib/galleryPosition.ts';
import { useIsNew } from '../live/connection.ts';
import { GalleryIcon, ShieldIcon, SparklesIcon } from '../components/icons.tsx';
import { ArtworkCard } from './-components/gallery/ArtworkCard.tsx';
import { StoryCard } from './-components/gallery/StoryCard.tsx';
import { MediaCard } from './-components/gallery/MediaCard.tsx';
import { GallerySkeleton } from './-components/gallery/GallerySkeleton.tsx';
import { Pagination } from './-components/gallery/Pagination.tsx';
import { SearchBox } from './-components/gallery/SearchBox.tsx';
import type { GalleryItemView } from '../../../contract/views.ts';

export const Route = createFileRoute('/gallery')({
  validateSearch: gallerySearch,
  loaderDeps: ({ search }) => ({ page: search.page ?? 1, q: search.q ?? '' }),
  loader: ({ context, deps }) => {
    // Warm the cache only; behind the gate the request would just be refused.
    if (getSession().signedIn) void context.queryClient.prefetchQuery(galleryQueryOptions(deps));
  },
  component: GalleryPage,
});

function GalleryPage() {
  const { page = 1, q = '' } = Route.useSearch();
  const navigate = Route.useNavigate();
  const session = useSession();
  const name = useQuery(tributeQueryOptions()).data?.name;
  const gallery = useQuery(galleryQueryOptions({ page, q }));

  const onSearch = useCallback(
    (query: string) => void navigate({ search: { q: query || undefined }, replace: true }),
    [navigate],
  );
  const onPage = (next: number) => {
    void navigate({ search: (previous) => ({ ...previous, page: next > 1 ? next : undefined }) });
    window.scrollTo({ top: 0, behavior: 'smooth' });
  };

  // Back from an item: return to where the visitor was.
  const loaded = gallery.isSuccess && !gallery.isPlaceholderData;
  useEffect(() => {
    if (!loaded) return;
    const y = takeGalleryScroll();
    if (y !== null) requestAnimationFrame(() => window.scrollTo({ top: y }));
  }, [loaded]);

  return (
    <div className="mx-auto max-w-7xl px-4 py-10 sm:px-6 sm:py-14">
      <header className="mb-10 text-center">
        <h1 className="font-display text-4xl font-bold text-stone-900 sm:text-5xl dark:text-amber-50">
          The Tribute Gallery
        </h1>
        <p className="mx-auto mt-4 max-w-2xl text-lg text-stone-600 dark:text-stone-300">
          Artwork, stories and messages from colleagues celebrating {name ?? 'our friend'}. Every piece was made with
          love.
        </p>
        <div className="mt-8">
          <SearchBox value={q} onSearch={onSearch} />
        </div>
      </header>

      {gallery.isPending ? (
        <GallerySkeleton />
      ) : gallery.isError ? (
        <EmptyState title="Failed to load gallery" text="Please try refreshing the page." />
      ) : gallery.data.items.length === 0 ? (
        q ? (
          <EmptyState title="No matching content found" text="Try adjusting your search." />
        ) : (
          <EmptyState title="No content found" text="There is no content in the gallery yet." />
        )
      ) : (
        <>
          <ul
            className={`grid grid-cols-1 gap-6 transition-opacity sm:grid-cols-2 lg:grid-cols-3 xl:grid-cols-4 ${
              gallery.isPlaceholderData ? 'opacity-60' : ''
            }`}
          >
            {gallery.data.items.map((item) => (
              <GalleryCell key={`${item.kind}-${item.id}`} item={item} page={page} />
            ))}
          </ul>
          <Pagination page={page} pageCount={gallery.data.pageCount} onPage={onPage} />
        </>
      )}

      {session.admin && (
        <div className="mt-16 flex flex-wrap justify-center gap-3">
          <Link to="/admin" className="btn-secondary">
            <ShieldIcon className="h-4 w-4" /> Admin Access
          </Link>
          <Link to="/reveal" className="btn-secondary">
            <SparklesIcon className="h-4 w-4" /> Reveal mode
          </Link>
        </div>
      )}
    </div>
  );
}

/** One card; for a few seconds after it arrived live it wears a ring and a 'New' badge. */
function GalleryCell({ item, page }: { item: GalleryItemView; page: number }) {
  const isNew = useIsNew(item.kind, item.id);
  return (
    <li
      className={`relative flex rounded-2xl transition-shadow ${
        isNew
          ? 'ring-4 ring-amber-400 ring-offset-2 ring-offset-amber-50 dark:ring-amber-500 dark:ring-offset-stone-950'
          : ''
      }`}
    >
      <GalleryCard item={item} page={page} />
      {isNew && (
        <span className="pointer-events-none absolute -top-3 left-4 z-20 inline-flex items-center gap-1 rounded-full bg-rose-600 px-3 py-1 text-xs font-bold tracking-wide text-white uppercase shadow-md">
          <SparklesIcon className="h-3.5 w-3.5" /> New
        </span>
      )}
    </li>
  );
}

function GalleryCard({ item, page }: { item: GalleryItemView; page: number }) {
  switch (item.kind) {
    case 'artwork':
      return <ArtworkCard item={item} page={page} />;
    case 'story':
      return <StoryCard item={item} page={page} />;
    case 'media':
      return <MediaCard item={item} page={page} />;
    default:
      return null;
  }
}

function EmptyState({ title, text }: { title: string; text: string }) {
  return (
    <div className="card mx-auto max-w-lg px-6 py-14 text-center">
      <GalleryIcon className="mx-auto h-12 w-12 text-amber-500" />
      <h2 className="mt-4 font-display text-2xl font-semibold text-stone-900 dark:text-amber-50">{title}</h2>
      <p className="mt-2 text-stone-600 dark:text-stone-400">{text}</p>
    </div>
  );
}
