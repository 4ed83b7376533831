import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import {
  isSubmission,
  type Kind,
  type ReactionEmoji,
  type ShowAnswer,
  type ShowItemRef,
} from '../../../contract/live.ts';
import { api } from '../lib/api.ts';
import { itemPath } from './itemKinds.ts';

export type {
  ReactionCounts,
  ReactionEmoji,
  ShowAnswer,
  ShowItemRef,
  ShowState,
  ShowStatus,
} from '../../../contract/live.ts';
export { MONTAGE_ITEM, MURAL_ITEM, REACTION_EMOJIS } from '../../../contract/live.ts';

export type ShowAction =
  | { action: 'start' | 'pause' | 'resume' | 'stop' }
  /** `from`: the index on the screen, so that a second press of the same move is not a second move */
  | { action: 'next' | 'prev'; from?: number }
  | { action: 'goto' | 'queue'; kind: ShowItemRef['kind']; id: number };

/** A submission the show points at (the mural and the montage take no reactions). */
export type ReactableRef = ShowItemRef & { kind: Kind };
export const isReactable = (ref: ShowItemRef): ref is ReactableRef => isSubmission(ref);

export const showKeys = { status: ['show'] as const };

export function showQueryOptions() {
  return queryOptions({
    queryKey: showKeys.status,
    queryFn: ({ signal }) => api<ShowAnswer>('/api/show', { signal }),
  });
}

export const sendShowAction = (action: ShowAction) => api<ShowAnswer>('/api/show', { body: action });

export const sendReaction = (item: ReactableRef, emoji: ReactionEmoji) =>
  api<{ accepted: true }>(`${itemPath(item.kind, item.id)}/reactions`, { body: { emoji } });

/** The presenter's buttons: the show's answer replaces the cached state unless a newer one is there. */
export function useShowAction({ onSuccess, onError }: { onSuccess: () => void; onError: (error: Error) => void }) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (action: ShowAction) => sendShowAction(action),
    onSuccess: (answer) => {
      onSuccess();
      queryClient.setQueryData(showKeys.status, (old: ShowAnswer | undefined) =>
        old && old.position > answer.position ? old : answer,
      );
    },
    onError,
  });
}
