import { ReactionTotals } from '../show/ReactionBar.tsx';
import { useEffect, useState, type ReactNode } from 'react';
import type { UseQueryResult } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { ITEM_KINDS } from '../../../queries/itemKinds.ts';
import { rememberedGalleryPage } from '../../../lib/galleryPosition.ts';
import { ArrowLeftIcon } from '../../../components/icons.tsx';
import { LikeToggle } from './LikeToggle.tsx';
import { Comments } from './Comments.tsx';
import { AdminAccess } from './AdminAccess.tsx';
import { useViewCount, viewsText } from '../../../queries/views.ts';
import type { ItemView, Kind } from '../../../../../contract/views.ts';

interface DetailShellProps<T extends Pick<ItemView, 'reactions'>> {
  kind: Kind;
  id: number;
  /** The gallery page the visitor came from (?page=), kept by the Back to Gallery link. */
  page: number | undefined;
  item: UseQueryResult<T>;
  /** The item's own content, at the top of its card. */
  children: (item: T) => ReactNode;
}

/**
 * What every detail page shares (spec §2 Detail screens): the way back, loading and error states,
 * the like toggle, comments and the admin section.
 */
export function DetailShell<T extends Pick<ItemView, 'reactions'>>({
  kind,
  id,
  page,
  item,
  children,
}: DetailShellProps<T>) {
  const backPage = page ?? rememberedGalleryPage();
  // Unlocked locally by any non-empty key (spec §4); the server decides on each delete.
  const [adminKey, setAdminKey] = useState<string | null>(null);

  useEffect(() => {
    window.scrollTo(0, 0);
  }, [id]);
  useEffect(() => {
    setAdminKey(null);
  }, [kind, id]);
  // The first version reported views to a third-party analytics service; this gallery counts them itself.
  const views = useViewCount(kind, id);

  if (item.isError) return <DetailError kind={kind} page={backPage} />;

  return (
    <div className="mx-auto max-w-4xl px-4 pt-8 pb-40 sm:px-6 sm:pt-12 sm:pb-16">
      <Link to="/gallery" search={{ page: backPage }} className="btn-secondary mb-8">
        <ArrowLeftIcon className="h-4 w-4" /> Back to Gallery
      </Link>
      {item.isPending ? (
        <DetailSkeleton kind={kind} />
      ) : (
        <div className="space-y-8">
          <article className="card overflow-hidden">
            {children(item.data)}
            <div className="flex items-center border-t border-amber-100 px-6 py-4 sm:px-8 dark:border-stone-800">
              <LikeToggle kind={kind} id={id} />
              <ReactionTotals className="ml-4" totals={item.data.reactions} />
              {views !== null && (
                <span className="ml-auto text-sm text-stone-500 dark:text-stone-400">{viewsText(views)}</span>
              )}
            </div>
          </article>
          <Comments kind={kind} id={id} adminKey={adminKey} onInvalidKey={() => setAdminKey(null)} />
          <AdminAccess kind={kind} id={id} adminKey={adminKey} onAdminKey={setAdminKey} />
        </div>
      )}
    </div>
  );
}

function DetailError({ kind, page }: { kind: Kind; page: number | undefined }) {
  const { noun, Noun } = ITEM_KINDS[kind];
  return (
    <div className="mx-auto max-w-xl px-4 py-24 text-center">
      <h1 className="font-display text-3xl font-bold text-stone-900 dark:text-amber-50">Error Loading {Noun}</h1>
      <p className="mt-3 text-stone-600 dark:text-stone-400">The {noun} could not be found or loaded.</p>
      <Link to="/gallery" search={{ page }} className="btn-primary mt-8">
        Return to Gallery
      </Link>
    </div>
  );
}

const bar = 'rounded bg-amber-100 dark:bg-stone-800';

function DetailSkeleton({ kind }: { kind: Kind }) {
  return (
    <div className="card animate-pulse overflow-hidden" role="status" aria-label={`Loading ${ITEM_KINDS[kind].noun}`}>
      {kind === 'artwork' && <div className="aspect-[4/3] bg-amber-100 dark:bg-stone-800" />}
      {kind === 'media' && <div className="aspect-video bg-stone-200 dark:bg-stone-800" />}
      <div className="space-y-3 p-6 sm:p-8">
        <div className={`h-8 w-1/2 ${bar}`} />
        <div className={`h-5 w-1/4 ${bar}`} />
        <div className={`h-4 w-full ${bar}`} />
        <div className={`h-4 w-5/6 ${bar}`} />
        {kind === 'story' && <div className={`h-4 w-2/3 ${bar}`} />}
      </div>
    </div>
  );
}
