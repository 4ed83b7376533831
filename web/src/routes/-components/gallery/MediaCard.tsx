import { useState } from 'react';
import { Link } from '@tanstack/react-router';
import type { GalleryItemView } from '../../../../../contract/views.ts';
import { rememberGalleryPosition } from '../../../lib/galleryPosition.ts';
import { MusicIcon, PlayIcon } from '../../../components/icons.tsx';
import { CardFooter } from './CardFooter.tsx';
import { CardImage, cardImageOf } from './CardImage.tsx';

function tagList(tags: GalleryItemView<'media'>['tags']): string[] {
  const list = Array.isArray(tags) ? tags : (tags ?? '').split(',');
  return list.map((tag) => tag.trim()).filter(Boolean);
}

export function MediaCard({ item, page }: { item: GalleryItemView<'media'>; page: number }) {
  const [thumbnailFailed, setThumbnailFailed] = useState(false);
  const video = item.mediaType === 'video';

  return (
    <article className="card group relative flex w-full flex-col overflow-hidden transition hover:-translate-y-1 hover:shadow-xl">
      <div className="relative flex aspect-video items-center justify-center overflow-hidden bg-gradient-to-br from-stone-800 to-stone-950 text-white">
        {video && !thumbnailFailed ? (
          <CardImage
            card={cardImageOf(item)}
            fallback={item.thumbnailUrl ?? `/api/media/${item.id}/thumbnail`}
            alt=""
            onError={() => setThumbnailFailed(true)}
            className="h-full w-full object-cover opacity-90 transition duration-500 group-hover:scale-105"
          />
        ) : (
          <span className="flex flex-col items-center gap-2 text-sm text-white/80">
            {video ? <PlayIcon className="h-10 w-10" filled /> : <MusicIcon className="h-10 w-10" />}
            {video ? 'Click to play video' : 'Click to play'}
          </span>
        )}
        {video && !thumbnailFailed && (
          <span className="absolute inset-0 flex items-center justify-center bg-black/20 transition group-hover:bg-black/35">
            <span className="flex h-14 w-14 items-center justify-center rounded-full bg-white/90 text-rose-600 shadow-lg">
              <PlayIcon className="ml-1 h-6 w-6" filled />
            </span>
          </span>
        )}
        <span className="absolute top-3 left-3 rounded-full bg-white/90 px-2.5 py-0.5 text-xs font-semibold text-stone-800 shadow">
          {video ? 'Video' : 'Audio'}
        </span>
      </div>
      <div className="p-4">
        <h2 className="line-clamp-1 font-display text-lg font-semibold text-stone-900 dark:text-amber-50">
          <Link
            to="/media/$id"
            params={{ id: item.id }}
            search={{ page: page > 1 ? page : undefined }}
            onClick={() => rememberGalleryPosition(page)}
            className="after:absolute after:inset-0"
          >
            {item.title || (video ? 'Untitled video' : 'Untitled audio')}
          </Link>
        </h2>
        {item.description && (
          <p className="mt-1 line-clamp-2 text-sm text-stone-600 dark:text-stone-400">{item.description}</p>
        )}
        {tagList(item.tags).length > 0 && (
          <ul className="mt-2 flex flex-wrap gap-1.5">
            {tagList(item.tags).map((tag) => (
              <li
                key={tag}
                className="rounded-full bg-amber-100 px-2 py-0.5 text-xs text-amber-800 dark:bg-stone-800 dark:text-amber-200"
              >
                {tag}
              </li>
            ))}
          </ul>
        )}
        <p className="mt-2 text-sm text-stone-500 dark:text-stone-400">By {item.artistName}</p>
      </div>
      <CardFooter item={item} />
    </article>
  );
}
