// what the gallery API sends for a card's picture: versioned WebP files in the widths a card needs
import type { CardImage as CardImageSource } from '../../../../../contract/views.ts';

/**
 * The card's width in the gallery grid (max-w-7xl, px-4/sm:px-6, gap-6; 1/2/3/4 columns at
 * base/sm/lg/xl), so the browser picks the smallest file that is sharp on this screen.
 */
export const CARD_SIZES = [
  '(min-width: 1280px) 290px',
  '(min-width: 1024px) calc((100vw - 96px) / 3)',
  '(min-width: 640px) calc((100vw - 72px) / 2)',
  'calc(100vw - 32px)',
].join(', ');

export function cardImageOf(item: object): CardImageSource | null {
  const card = (item as { card?: CardImageSource | null }).card;
  return card && typeof card.src === 'string' ? card : null;
}

export function CardImage({
  card,
  fallback,
  alt,
  className,
  onError,
}: {
  card: CardImageSource | null;
  fallback: string;
  alt: string;
  className: string;
  onError?: () => void;
}) {
  return card ? (
    <img
      src={card.src}
      srcSet={card.srcSet}
      sizes={CARD_SIZES}
      width={card.width}
      height={card.height}
      alt={alt}
      loading="lazy"
      decoding="async"
      onError={onError}
      className={className}
    />
  ) : (
    <img src={fallback} alt={alt} loading="lazy" decoding="async" onError={onError} className={className} />
  );
}
