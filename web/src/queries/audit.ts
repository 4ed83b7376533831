import {
  infiniteQueryOptions,
  keepPreviousData,
  queryOptions,
  useMutation,
  useQueryClient,
} from '@tanstack/react-query';
import type { ReactionCounts, ShowItemRef, ShowStatus } from '../../../contract/live.ts';
import type { MuralState, MuralStroke } from '../../../contract/mural.ts';
import { api } from '../lib/api.ts';
import type { GalleryItemView, Kind } from '../../../contract/views.ts';

export interface Actor {
  role: string;
  name: string | null;
}

/** One event of the log in chain order (CONTRACT §6). */
export interface ChainEvent {
  seq: number;
  position: number;
  streamId: string;
  version: number;
  type: string;
  data: Record<string, unknown>;
  metadata: Record<string, unknown>;
  recordedAt: string;
  actor: Actor;
  /** names and words by ref key, null once erased (decision 050) */
  personal?: Record<string, string | null>;
  prevHash: string;
  hash: string;
}

export interface EventFilters {
  kind?: Kind;
  type?: string;
  actor?: string;
  since?: string;
  until?: string;
}

const PAGE = 50;

function query(params: Record<string, string | number | undefined>): string {
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(params))
    if (value !== undefined && value !== '') search.set(key, String(value));
  return search.toString();
}

/** The stream newest first, page by page (`before` the last seq seen). */
export function eventStreamOptions(filters: EventFilters) {
  return infiniteQueryOptions({
    queryKey: ['audit', 'events', filters] as const,
    initialPageParam: undefined as number | undefined,
    queryFn: ({ pageParam, signal }) =>
      api<{ events: ChainEvent[]; next: number | null }>(
        `/api/admin/events?${query({ order: 'desc', limit: PAGE, before: pageParam, ...filters })}`,
        { signal },
      ),
    getNextPageParam: (last) => last.next ?? undefined,
  });
}

/** Events after `after` in chain order, up to `limit`: what a replay plays. */
export function eventsAfter(after: number, limit = 1000): Promise<{ events: ChainEvent[]; next: number | null }> {
  return api(`/api/admin/events?${query({ after, limit })}`);
}

export interface Anchor {
  seq: number;
  hash: string;
  at: string;
}

export interface ChainStatus {
  head: { seq: number; hash: string } | null;
  unsealed: number;
  anchor: Anchor | null;
  anchoredIn: string;
  /** events a projection could not read and set aside: in the log and its chain, not in the gallery */
  quarantined: {
    count: number;
    events: { seq: number; position: number; projections: string[]; reason: string; at: string }[];
  };
}

export function chainStatusOptions() {
  return queryOptions({
    queryKey: ['audit', 'status'] as const,
    queryFn: ({ signal }) => api<ChainStatus>('/api/admin/events/status', { signal }),
    refetchInterval: 15_000,
  });
}

export type VerifyResult =
  | { ok: true; checked: number; unsealed: number; head: { seq: number; hash: string }; anchor: Anchor | null }
  | { ok: false; checked: number; firstBadSeq: number; firstBadPosition: number | null; reason: string };

export function verifyChain(): Promise<VerifyResult> {
  return api<VerifyResult>('/api/admin/events/verify');
}

export interface HistoryEvent {
  seq: number;
  type: string;
  data: Record<string, unknown>;
  /** names, words and notes by ref key, null once erased (decisions 050, 090) */
  personal?: Record<string, string | null>;
  actor: Actor;
  recordedAt: string;
}

export interface ItemHistory {
  item: (GalleryItemView & { status?: string; archived?: boolean; adminNotes?: string | null }) | null;
  events: HistoryEvent[];
}

export function itemHistoryOptions(kind: string, id: number) {
  return queryOptions({
    queryKey: ['audit', 'history', kind, id] as const,
    queryFn: ({ signal }) => api<ItemHistory>(`/api/admin/history/${kind}/${id}`, { signal }),
  });
}

export interface GalleryAt {
  items: GalleryItemView[];
  total: number;
  at: number;
}

export function galleryAtOptions(seq: number) {
  return queryOptions({
    queryKey: ['audit', 'gallery-at', seq] as const,
    queryFn: ({ signal }) => api<GalleryAt>(`/api/gallery?at=${seq}`, { signal }),
    placeholderData: keepPreviousData,
    staleTime: Infinity,
  });
}

/** `GET /api/admin/show?at=SEQ` (decision 044): the show right after event SEQ, its items with their totals. */
export interface ShowAt extends ShowStatus {
  items: Array<ShowItemRef & { title: string; reactions: ReactionCounts }>;
  at: number;
}

export function showAtOptions(seq: number) {
  return queryOptions({
    queryKey: ['audit', 'show-at', seq] as const,
    queryFn: ({ signal }) => api<ShowAt>(`/api/admin/show?at=${seq}`, { signal }),
    placeholderData: keepPreviousData,
    staleTime: Infinity,
  });
}

/** `GET /api/admin/mural?at=SEQ` (decision 044): the mural right after event SEQ, strokes in painting order. */
export interface MuralAt {
  state: MuralState;
  artworkId: number | null;
  width: number;
  height: number;
  strokes: MuralStroke[];
  at: number;
}

export function muralAtOptions(seq: number) {
  return queryOptions({
    queryKey: ['audit', 'mural-at', seq] as const,
    queryFn: ({ signal }) => api<MuralAt>(`/api/admin/mural?at=${seq}`, { signal }),
    placeholderData: keepPreviousData,
    staleTime: Infinity,
  });
}

export interface WhoAmI {
  userType: 'guest' | 'admin' | 'auditor';
}

export function whoAmIOptions() {
  return queryOptions({
    queryKey: ['audit', 'whoami'] as const,
    queryFn: ({ signal }) => api<WhoAmI>('/api/auth/session', { signal }),
  });
}

export type EraseKind = 'email' | 'address' | 'name';

/** Admins only: blanks a person's stored email, address or login name; the log is untouched. */
export function erasePersonalData(kind: EraseKind, value: string): Promise<{ erased: number; kind: EraseKind }> {
  return api('/api/admin/erase', { method: 'POST', body: { [kind]: value } });
}

/** Verifies the chain now; the chain's status is read again either way. */
export function useVerifyChain() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: verifyChain,
    onSettled: () => queryClient.invalidateQueries({ queryKey: ['audit', 'status'] }),
  });
}

/** Erases a person's stored data; everything the audit console shows is read again. */
export function useErasePersonalData({ onSuccess }: { onSuccess: () => void }) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ kind, value }: { kind: EraseKind; value: string }) => erasePersonalData(kind, value),
    onSuccess: () => {
      onSuccess();
      void queryClient.invalidateQueries({ queryKey: ['audit'] });
    },
  });
}
