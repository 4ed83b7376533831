import { useQuery } from '@tanstack/react-query';
import { createFileRoute } from '@tanstack/react-router';
import { storyAuthor, storyQueryOptions, storyTitle } from '../queries/stories.ts';
import { getSession } from '../lib/session.ts';
import { gallerySearch, idParams } from '../lib/routeParams.ts';
import { formatDate } from '../lib/format.ts';
import { BookIcon } from '../components/icons.tsx';
import { DetailShell } from './-components/detail/DetailShell.tsx';
import type { StoryView as Story } from '../../../contract/views.ts';

export const Route = createFileRoute('/story/$id')({
  params: idParams,
  validateSearch: gallerySearch,
  loader: ({ context, params }) => {
    if (getSession().signedIn) void context.queryClient.prefetchQuery(storyQueryOptions(params.id));
  },
  component: StoryPage,
});

function StoryPage() {
  const { id } = Route.useParams();
  const { page } = Route.useSearch();
  const story = useQuery(storyQueryOptions(id));
  return (
    <DetailShell kind="story" id={id} page={page} item={story}>
      {(data) => <StoryContent story={data} />}
    </DetailShell>
  );
}

function StoryContent({ story }: { story: Story }) {
  return (
    <div className="bg-gradient-to-br from-white to-amber-50 p-6 sm:p-10 dark:from-stone-900 dark:to-stone-900">
      <span className="inline-flex items-center gap-1.5 rounded-full bg-emerald-100 px-3 py-1 text-sm font-semibold text-emerald-800 dark:bg-emerald-950 dark:text-emerald-300">
        <BookIcon className="h-4 w-4" /> Story
      </span>
      <h1 className="mt-4 font-display text-3xl font-bold break-words text-stone-900 sm:text-4xl dark:text-amber-50">
        {storyTitle(story)}
      </h1>
      <p className="mt-2 text-lg text-rose-600 dark:text-rose-300">By {storyAuthor(story)}</p>
      {story.createdAt && (
        <p className="mt-1 text-sm text-stone-500 dark:text-stone-400">{formatDate(story.createdAt)}</p>
      )}
      <p className="mt-8 font-display text-lg leading-relaxed break-words whitespace-pre-line text-stone-800 sm:text-xl dark:text-stone-200">
        {story.content}
      </p>
    </div>
  );
}
