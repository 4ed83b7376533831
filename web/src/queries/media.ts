import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { api, parseJson } from '../lib/api.ts';
import { adminKeys } from './adminKeys.ts';
import type { MutationHandlers } from './handlers.ts';
import { getSessionToken } from '../lib/session.ts';
import type { MediaView as Media } from '../../../contract/views.ts';
import { itemKey } from './itemKinds.ts';

export type MediaType = 'video' | 'audio';

export interface NewMedia {
  title: string;
  description: string;
  artistName: string;
  email: string;
  mediaType: MediaType;
  mediaData: string;
  mimeType: string;
  status: 'pending';
}

export interface UploadResult {
  success: boolean;
  error?: string;
  id: string;
  path: string;
  supabasePath?: string;
  /** What the server found in the file; more reliable than the browser's guess from the name. */
  mediaType?: MediaType;
  mimeType?: string;
}

// Spec §9: 536870912 bytes, video/* and audio/* only.
export const MEDIA_MAX_BYTES = 512 * 1024 * 1024;
const UPLOAD_TIMEOUT_MS = 30 * 60 * 1000;
/** From this size a file goes up resumably (tus); smaller ones in one plain request. */
export const RESUMABLE_FROM_BYTES = 8 * 1024 * 1024;

/** Whole percentages; null while a dropped connection is being resumed. */
export type UploadProgress = (percent: number | null) => void;

export const mediaKeys = {
  all: ['media'] as const,
  detail: (id: number) => itemKey('media', id),
};

export function mediaQueryOptions(id: number) {
  return queryOptions({
    queryKey: mediaKeys.detail(id),
    queryFn: ({ signal }) => api<Media>(`/api/media/${id}`, { signal }),
  });
}

/** The first source for the player (spec §7); the stored path is the fallback. */
export function mediaStreamUrl(id: number): string {
  return `/api/media/${id}/stream`;
}

/** Tags are a comma-separated string (spec §3); an array is tolerated too. */
export function mediaTags(tags: Media['tags'] | string[]): string[] {
  const list = Array.isArray(tags) ? tags : (tags ?? '').split(',');
  return list.map((tag) => tag.trim()).filter(Boolean);
}

export function mediaTypeOf(mimeType: string): MediaType | null {
  if (mimeType.startsWith('video/')) return 'video';
  if (mimeType.startsWith('audio/')) return 'audio';
  return null;
}

/** An upload that failed; `message` is the spec §8 text, `serverMessage` what the server said, if anything. */
export class UploadError extends Error {
  readonly serverMessage: string | undefined;
  constructor(message: string, serverMessage?: string) {
    super(message);
    this.name = 'UploadError';
    this.serverMessage = serverMessage;
  }
}

/**
 * Sends the file alone: a large one resumably (its client is loaded only then), a small one to
 * POST /api/upload-direct.
 */
export async function uploadMediaFile(file: File, onProgress: UploadProgress, signal?: AbortSignal) {
  if (file.size < RESUMABLE_FROM_BYTES) return uploadPlain(file, onProgress, signal);
  const { uploadResumable } = await import('./resumableUpload.ts');
  return uploadResumable(file, onProgress, signal);
}

/**
 * XMLHttpRequest rather than the request helper, because fetch cannot report upload progress.
 */
function uploadPlain(file: File, onProgress: UploadProgress, signal?: AbortSignal): Promise<UploadResult> {
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open('POST', '/api/upload-direct');
    xhr.withCredentials = true;
    xhr.timeout = UPLOAD_TIMEOUT_MS;
    const token = getSessionToken();
    if (token) xhr.setRequestHeader('x-session-token', token);

    xhr.upload.onprogress = (event) => {
      if (event.lengthComputable) onProgress(Math.min(100, Math.round((event.loaded / event.total) * 100)));
    };
    xhr.onload = () => {
      const body = parseJson(xhr.responseText);
      if (xhr.status < 200 || xhr.status >= 300) {
        reject(new UploadError(`Upload failed: Server error (${xhr.status}). Please try again.`, messageOf(body)));
        return;
      }
      if (!isUploadResult(body)) {
        reject(new UploadError('Upload error: Invalid server response', messageOf(body)));
        return;
      }
      resolve(body);
    };
    xhr.onerror = () =>
      reject(new UploadError('Network error: Connection failed. Please check your internet and try again.'));
    xhr.ontimeout = () => reject(new UploadError('Upload timeout: Upload took too long. Please try again.'));
    xhr.onabort = () => reject(new UploadError('Upload failed: An error occurred during upload'));
    signal?.addEventListener('abort', () => xhr.abort(), { once: true });

    const form = new FormData();
    form.append('file', file);
    try {
      xhr.send(form);
    } catch {
      reject(new UploadError('Upload failed: An error occurred during upload'));
    }
  });
}

function messageOf(body: unknown): string | undefined {
  if (!body || typeof body !== 'object') return undefined;
  const record = body as Record<string, unknown>;
  const message = record.message ?? record.error;
  return typeof message === 'string' && message ? message : undefined;
}

export function isUploadResult(body: unknown): body is UploadResult {
  if (!body || typeof body !== 'object') return false;
  const record = body as Record<string, unknown>;
  return record.success === true && typeof record.path === 'string' && record.path !== '';
}

export function submitMedia(media: NewMedia): Promise<Media> {
  return api<Media>('/api/media', { method: 'POST', body: media });
}

/** Video post-processing after the save (spec §7); harmless to repeat. */
export function processMedia(id: number, path: string): Promise<unknown> {
  return api('/api/process', { method: 'POST', body: { id, path } });
}

/**
 * Saves the uploaded media; post-processing is asked for after it (it is queued by the save too, so a
 * failure there only means it is not queued twice). The media and the admin queue are read again.
 */
export function useSubmitMedia(handlers: MutationHandlers<Media, NewMedia>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (media: NewMedia) => {
      const saved = await submitMedia(media);
      await processMedia(saved.id, media.mediaData).catch((error: unknown) =>
        console.warn('Media processing request failed', error),
      );
      return saved;
    },
    onSuccess: (saved, variables) => {
      handlers.onSuccess?.(saved, variables);
      void queryClient.invalidateQueries({ queryKey: mediaKeys.all });
      void queryClient.invalidateQueries({ queryKey: adminKeys.all });
    },
    onError: handlers.onError,
  });
}

/** The server's limit on a caption track (api/media/captions.ts). */
export const CAPTIONS_MAX_BYTES = 256 * 1024;

/**
 * What is wrong with a chosen caption file before it is sent (decision 123), or null: the server
 * checks the same and answers 413/415 with its own words.
 */
export function captionsProblem(text: string, bytes: number): string | null {
  if (bytes > CAPTIONS_MAX_BYTES) return 'Caption files can be at most 256 KB.';
  if (!/^\uFEFF?WEBVTT(?:$|[ \t\r\n])/.test(text))
    return 'This is not a WebVTT caption file (it must begin with WEBVTT).';
  return null;
}

/**
 * A message's WebVTT track as text, for its transcript (decision 130). Beneath the item's key, so
 * whatever refreshes the item refreshes it; a live change of the track refetches it (live/captions.ts).
 */
export function captionsQueryOptions(media: Pick<Media, 'id' | 'captionsUrl'>) {
  return queryOptions({
    queryKey: [...mediaKeys.detail(media.id), 'captions'] as const,
    queryFn: ({ signal }) => api<string>(media.captionsUrl!, { signal, as: 'text', headers: { Accept: 'text/vtt' } }),
    enabled: media.captionsUrl !== null,
  });
}

/** Sets (or, with null, removes) a message's track, captions or transcript: its sender while it waits, or an admin. */
export function setCaptions(id: number, text: string | null): Promise<Media> {
  return text === null
    ? api<Media>(`/api/media/${id}/captions`, { method: 'DELETE' })
    : api<Media>(`/api/media/${id}/captions`, { method: 'PUT', file: { text, type: 'text/vtt' } });
}
