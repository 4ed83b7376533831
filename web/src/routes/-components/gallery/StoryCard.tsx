import { Link } from '@tanstack/react-router';
import type { GalleryItemView } from '../../../../../contract/views.ts';
import { rememberGalleryPosition } from '../../../lib/galleryPosition.ts';
import { BookIcon } from '../../../components/icons.tsx';
import { CardFooter } from './CardFooter.tsx';

/** What a story is called when it has no title: its first six words (spec §2 Story detail). */
function storyName(item: GalleryItemView<'story'>): string {
  if (item.title?.trim()) return item.title.trim();
  const words = item.content.trim().split(/\s+/);
  return words.length > 6 ? `${words.slice(0, 6).join(' ')}...` : words.join(' ');
}

export function StoryCard({ item, page }: { item: GalleryItemView<'story'>; page: number }) {
  const author = item.isAnonymous ? 'Anonymous' : item.authorName;
  return (
    <article className="card group relative flex w-full flex-col overflow-hidden bg-gradient-to-br from-white to-amber-50 transition hover:-translate-y-1 hover:shadow-xl dark:from-stone-900 dark:to-stone-900">
      <div className="flex flex-1 flex-col p-5">
        <span className="inline-flex w-fit items-center gap-1.5 rounded-full bg-emerald-100 px-2.5 py-0.5 text-xs font-semibold text-emerald-800 dark:bg-emerald-950 dark:text-emerald-300">
          <BookIcon className="h-3.5 w-3.5" /> Story
        </span>
        {item.title && (
          <h2 className="mt-3 line-clamp-2 font-display text-lg font-semibold text-stone-900 dark:text-amber-50">
            {item.title}
          </h2>
        )}
        <p className="mt-3 line-clamp-6 font-display text-base leading-relaxed whitespace-pre-line text-stone-700 italic dark:text-stone-300">
          {item.content}
        </p>
        <p className="mt-4 text-sm text-stone-600 dark:text-stone-400">
          <Link
            to="/story/$id"
            params={{ id: item.id }}
            search={{ page: page > 1 ? page : undefined }}
            onClick={() => rememberGalleryPosition(page)}
            className="after:absolute after:inset-0"
          >
            <span className="sr-only">{storyName(item)}, </span>By {author}
          </Link>
        </p>
      </div>
      <CardFooter item={item} />
    </article>
  );
}
