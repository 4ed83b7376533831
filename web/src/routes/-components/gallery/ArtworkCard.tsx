import { Link } from '@tanstack/react-router';
import { pictureAlt, type GalleryItemView } from '../../../../../contract/views.ts';
import { rememberGalleryPosition } from '../../../lib/galleryPosition.ts';
import { CardFooter } from './CardFooter.tsx';
import { CardImage, cardImageOf } from './CardImage.tsx';

export function ArtworkCard({ item, page }: { item: GalleryItemView<'artwork'>; page: number }) {
  return (
    <article className="card group relative flex w-full flex-col overflow-hidden transition hover:-translate-y-1 hover:shadow-xl">
      <div className="aspect-[4/3] overflow-hidden bg-amber-100 dark:bg-stone-800">
        <CardImage
          card={cardImageOf(item)}
          fallback={item.thumbnailUrl ?? `/api/artworks/${item.id}/image/thumbnail`}
          alt={pictureAlt(item)}
          className="h-full w-full object-cover transition duration-500 group-hover:scale-105"
        />
      </div>
      <div className="p-4">
        <h2 className="line-clamp-1 font-display text-lg font-semibold text-stone-900 dark:text-amber-50">
          <Link
            to="/artwork/$id"
            params={{ id: item.id }}
            search={{ page: page > 1 ? page : undefined }}
            onClick={() => rememberGalleryPosition(page)}
            className="after:absolute after:inset-0"
          >
            {item.title || 'Untitled'}
          </Link>
        </h2>
        <p className="mt-0.5 text-sm text-stone-500 dark:text-stone-400">By {item.artistName}</p>
      </div>
      <CardFooter item={item} />
    </article>
  );
}
