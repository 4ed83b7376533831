/**
 * What a screen adds to a mutation hook from queries/: its own words (toasts) and its own state
 * (clearing a form). The hook owns the call and what the cache learns from it.
 */
export interface MutationHandlers<TData = unknown, TVariables = void> {
  onSuccess?: (data: TData, variables: TVariables) => unknown;
  onError?: (error: Error, variables: TVariables) => void;
}
