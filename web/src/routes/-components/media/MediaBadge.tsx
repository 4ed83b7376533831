import type { MediaType } from '../../../queries/media.ts';
import { FilmIcon, MusicIcon } from '../../../components/icons.tsx';

/** 'Video' or 'Audio' (spec §2 Media). */
export function MediaBadge({ mediaType }: { mediaType: MediaType }) {
  const video = mediaType === 'video';
  return (
    <span
      className={`inline-flex w-fit items-center gap-1.5 rounded-full px-3 py-1 text-sm font-semibold ${
        video
          ? 'bg-sky-100 text-sky-800 dark:bg-sky-950 dark:text-sky-300'
          : 'bg-violet-100 text-violet-800 dark:bg-violet-950 dark:text-violet-300'
      }`}
    >
      {video ? <FilmIcon className="h-4 w-4" /> : <MusicIcon className="h-4 w-4" />}
      {video ? 'Video' : 'Audio'}
    </span>
  );
}

export function TagList({ tags }: { tags: string[] }) {
  if (tags.length === 0) return null;
  return (
    <ul aria-label="Tags" className="flex flex-wrap gap-2">
      {tags.map((tag) => (
        <li
          key={tag}
          className="rounded-full bg-amber-100 px-3 py-1 text-sm text-amber-900 dark:bg-stone-800 dark:text-amber-200"
        >
          {tag}
        </li>
      ))}
    </ul>
  );
}
