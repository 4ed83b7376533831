import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../lib/api.ts';
import { adminKeys } from './adminKeys.ts';
import type { MutationHandlers } from './handlers.ts';
import type { StoryView as Story } from '../../../contract/views.ts';
import { itemKey } from './itemKinds.ts';

export interface NewStory {
  title: string | null;
  content: string;
  authorName: string;
  /** null for anonymous stories */
  email: string | null;
  isAnonymous: boolean;
}

export const storyKeys = {
  all: ['stories'] as const,
  detail: (id: number) => itemKey('story', id),
};

export function storyQueryOptions(id: number) {
  return queryOptions({
    queryKey: storyKeys.detail(id),
    queryFn: ({ signal }) => api<Story>(`/api/stories/${id}`, { signal }),
  });
}

export function submitStory(story: NewStory): Promise<Story> {
  return api<Story>('/api/stories', { method: 'POST', body: story });
}

/** Spec §2 Story: the title, or the first six words of the content followed by '...'. */
export function storyTitle(story: Pick<Story, 'title' | 'content'>): string {
  if (story.title?.trim()) return story.title.trim();
  return `${story.content.trim().split(/\s+/).slice(0, 6).join(' ')}...`;
}

export function storyAuthor(story: Pick<Story, 'isAnonymous' | 'authorName'>): string {
  return story.isAnonymous ? 'Anonymous' : story.authorName;
}

/** Sends a story; the stories and the admin queue are read again. */
export function useSubmitStory(handlers: MutationHandlers<Story, NewStory>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (story: NewStory) => submitStory(story),
    onSuccess: (story, variables) => {
      handlers.onSuccess?.(story, variables);
      void queryClient.invalidateQueries({ queryKey: storyKeys.all });
      void queryClient.invalidateQueries({ queryKey: adminKeys.all });
    },
    onError: handlers.onError,
  });
}
