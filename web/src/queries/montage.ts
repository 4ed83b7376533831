import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import type { MontageStatus } from '../../../contract/montage.ts';
import { api } from '../lib/api.ts';

export type { MontageStatus };

export const montageKeys = { status: ['admin', 'montage'] as const };

/** The montage's state; asked again every second while a run is making it. */
export function montageQueryOptions() {
  return queryOptions({
    queryKey: montageKeys.status,
    queryFn: ({ signal }) => api<MontageStatus>('/api/admin/montage', { signal }),
    refetchInterval: (query) => (query.state.data?.state === 'running' ? 1000 : false),
  });
}

export function useStartMontage() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: () => api<MontageStatus>('/api/admin/montage', { method: 'POST' }),
    onSuccess: (status) => client.setQueryData(montageKeys.status, status),
  });
}
