import { useQuery } from '@tanstack/react-query';
import { pendingStoriesQueryOptions } from '../../../queries/admin.ts';
import { storyTitle } from '../../../queries/stories.ts';
import { BookIcon } from '../../../components/icons.tsx';
import { AdminList } from './AdminList.tsx';
import { ReviewControls, Submitter } from './ReviewControls.tsx';
import type { StoryView as Story } from '../../../../../contract/views.ts';

export function PendingStories() {
  const pending = useQuery(pendingStoriesQueryOptions());
  return (
    <AdminList query={pending} empty="No stories are waiting for review.">
      {(story) => <PendingStoryCard key={story.id} story={story} />}
    </AdminList>
  );
}

function PendingStoryCard({ story }: { story: Story }) {
  const title = storyTitle(story);
  return (
    <li className="card flex flex-col gap-3 p-5">
      <div>
        <span className="inline-flex items-center gap-1.5 rounded-full bg-emerald-100 px-2.5 py-0.5 text-xs font-semibold text-emerald-800 dark:bg-emerald-950 dark:text-emerald-300">
          <BookIcon className="h-3.5 w-3.5" /> {story.isAnonymous ? 'Anonymous story' : 'Story'}
        </span>
        <h3 className="mt-2 font-display text-xl font-semibold break-words text-stone-900 dark:text-amber-50">
          {title}
        </h3>
        <Submitter by={story.authorName} email={story.email} createdAt={story.createdAt} />
      </div>
      <p className="max-h-64 overflow-y-auto rounded-xl bg-amber-50/80 p-4 break-words whitespace-pre-line text-stone-700 dark:bg-stone-800/60 dark:text-stone-300">
        {story.content}
      </p>
      <ReviewControls kind="story" id={story.id} label={title} adminNotes={story.adminNotes} />
    </li>
  );
}
