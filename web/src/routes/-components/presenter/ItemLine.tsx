import { slideCaption } from '../reveal/slideshow.ts';
import type { ShowItemRef } from '../../../queries/show.ts';
import type { ItemView } from '../../../../../contract/views.ts';

/** An item or the mural in the presenter's lists, as `kind:id`. */
export const keyOf = (i: ShowItemRef) => `${i.kind}:${i.id}`;

export function ItemLine({ item, large = false, testId }: { item: ItemView; large?: boolean; testId?: string }) {
  const { title, by, kind } = slideCaption(item);
  const thumb = item.kind !== 'story' ? item.thumbnailUrl : null;
  return (
    <div className="flex min-w-0 items-center gap-3" data-testid={testId} data-item={`${item.kind}:${item.id}`}>
      {thumb ? (
        <img src={thumb} alt="" className={`${large ? 'h-16 w-16' : 'h-10 w-10'} shrink-0 rounded-lg object-cover`} />
      ) : (
        <span
          aria-hidden="true"
          className={`${large ? 'h-16 w-16 text-2xl' : 'h-10 w-10'} flex shrink-0 items-center justify-center rounded-lg bg-amber-100 font-display text-amber-700 dark:bg-stone-800 dark:text-amber-300`}
        >
          “
        </span>
      )}
      <div className="min-w-0">
        <p className={`truncate font-semibold text-stone-900 dark:text-amber-50 ${large ? 'text-lg' : 'text-sm'}`}>
          {title}
        </p>
        <p className="truncate text-xs text-stone-600 dark:text-stone-400">
          {kind} · by {by}
        </p>
      </div>
    </div>
  );
}

const SPECIAL = {
  mural: { icon: '✎', title: 'The group mural', about: 'Mural · drawn live by everyone' },
  montage: { icon: '▶', title: "The film of everyone's messages", about: 'Montage · every video message' },
} as const;

/** Whether the show's item is the mural or the montage, which the presenter's lists name by this. */
export const isSpecial = (ref: ShowItemRef | null): ref is ShowItemRef & { kind: keyof typeof SPECIAL } =>
  !!ref && ref.kind in SPECIAL;

/** The mural or the montage, as the presenter's lists name them. */
export function SpecialLine({
  kind,
  large = false,
  testId,
}: {
  kind: keyof typeof SPECIAL;
  large?: boolean;
  testId?: string;
}) {
  const { icon, title, about } = SPECIAL[kind];
  return (
    <div className="flex min-w-0 items-center gap-3" data-testid={testId} data-item={`${kind}:1`}>
      <span
        aria-hidden="true"
        className={`${large ? 'h-16 w-16 text-2xl' : 'h-10 w-10'} flex shrink-0 items-center justify-center rounded-lg bg-rose-100 text-rose-700 dark:bg-stone-800 dark:text-rose-300`}
      >
        {icon}
      </span>
      <div className="min-w-0">
        <p className={`truncate font-semibold text-stone-900 dark:text-amber-50 ${large ? 'text-lg' : 'text-sm'}`}>
          {title}
        </p>
        <p className="truncate text-xs text-stone-600 dark:text-stone-400">{about}</p>
      </div>
    </div>
  );
}
