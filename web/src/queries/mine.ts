import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import type { Contribution, ContributionText, MineAnswer } from '../../../contract/mine.ts';
import type { Kind } from '../../../contract/live.ts';
import { api } from '../lib/api.ts';
import type { MutationHandlers } from './handlers.ts';
import { ITEM_KINDS } from './itemKinds.ts';

export type { Contribution, ContributionText };

export const mineKeys = { all: ['mine'] as const };

/** What this browser sent (CONTRACT §11); `mine:changed` and the mutations below read it again. */
export function mineQueryOptions() {
  return queryOptions({
    queryKey: mineKeys.all,
    queryFn: ({ signal }) => api<MineAnswer>('/api/mine', { signal }),
  });
}

export interface ContributionRef {
  kind: Kind;
  id: number;
}

/** The words sent with an edit: only the fields that changed. */
export type ContributionEdit = Partial<
  Record<'title' | 'description' | 'tags' | 'artistName' | 'content' | 'authorName', string | null>
>;

/** Puts one item's new state into the list, so the page shows it before the list is read again. */
function useReplace() {
  const queryClient = useQueryClient();
  return (item: Contribution) => {
    queryClient.setQueryData<MineAnswer>(mineKeys.all, (answer) =>
      answer ? { items: answer.items.map((i) => (i.kind === item.kind && i.id === item.id ? item : i)) } : answer,
    );
    void queryClient.invalidateQueries({ queryKey: mineKeys.all });
  };
}

export function useEditContribution(
  handlers: MutationHandlers<Contribution, ContributionRef & { edit: ContributionEdit }>,
) {
  const replace = useReplace();
  return useMutation({
    mutationFn: ({ kind, id, edit }: ContributionRef & { edit: ContributionEdit }) =>
      api<Contribution>(`/api/mine/${kind}/${id}`, { method: 'PATCH', body: edit }),
    onSuccess: (item, variables) => {
      replace(item);
      handlers.onSuccess?.(item, variables);
    },
    onError: handlers.onError,
  });
}

export function useWithdrawContribution(handlers: MutationHandlers<Contribution, ContributionRef>) {
  const replace = useReplace();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ kind, id }: ContributionRef) => api<Contribution>(`/api/mine/${kind}/${id}`, { method: 'DELETE' }),
    onSuccess: (item, variables) => {
      replace(item);
      // it left the gallery too: the socket says so to every screen, this one included
      void queryClient.invalidateQueries({ queryKey: ['gallery'] });
      handlers.onSuccess?.(item, variables);
    },
    onError: handlers.onError,
  });
}

/** The item as its sender calls it: "your artwork", "your story", "your message". */
export const kindNoun = (kind: Kind) => ITEM_KINDS[kind].sender;

/** A name for the item in a list: its title, a story's first words, or what it is. */
export function contributionName(item: Contribution): string {
  if (item.title?.trim()) return item.title.trim();
  const content = item.text?.content?.trim();
  if (content) {
    const words = content.split(/\s+/);
    return words.length > 6 ? `${words.slice(0, 6).join(' ')}…` : words.join(' ');
  }
  return `Your ${kindNoun(item.kind)}`;
}
