import { Upload, type DetailedError } from 'tus-js-client';
import { getSessionToken } from '../lib/session.ts';
import { parseJson } from '../lib/api.ts';
import { isUploadResult, UploadError, type UploadProgress, type UploadResult } from './media.ts';

/**
 * A large file sent with the tus protocol to /api/uploads (docs/decisions/106): in 8 MiB requests,
 * each retried after a dropped connection from where the server says it stopped, and resumed after a
 * reload from the URL the browser kept. Loaded only when such a file is chosen (the first page's
 * budget), by uploadMediaFile.
 */
const CHUNK_BYTES = 8 * 1024 * 1024;
/** About ten minutes of trying before giving up: a phone walking back into the Wi-Fi. */
const RETRY_DELAYS_MS = [0, 1000, 3000, 5000, 10_000, 15_000, 20_000, ...Array<number>(16).fill(30_000)];

export function uploadResumable(file: File, onProgress: UploadProgress, signal?: AbortSignal): Promise<UploadResult> {
  return new Promise((resolve, reject) => {
    const token = getSessionToken();
    let settled = false;
    const upload = new Upload(file, {
      endpoint: '/api/uploads',
      chunkSize: CHUNK_BYTES,
      retryDelays: RETRY_DELAYS_MS,
      headers: token ? { 'x-session-token': token } : {},
      metadata: { filetype: file.type },
      removeFingerprintOnSuccess: true,
      onProgress: (sent, total) => onProgress(Math.min(100, Math.round((sent / total) * 100))),
      onShouldRetry: (error) => {
        const status = error.originalResponse?.getStatus() ?? 0;
        // a refusal (4xx) stays one; a lost connection (status 0) or a server error is tried again
        const retry = status < 400 || status >= 500 || status === 409 || status === 423;
        if (retry) onProgress(null);
        return retry;
      },
      onError: (error) => {
        settled = true;
        reject(uploadErrorOf(error));
      },
      onSuccess: ({ lastResponse }) => {
        settled = true;
        const body = parseJson(lastResponse.getBody());
        if (isUploadResult(body)) resolve(body);
        else reject(new UploadError('Upload error: Invalid server response'));
      },
    });
    signal?.addEventListener(
      'abort',
      () => {
        // a finished upload is forgotten by the server: nothing to terminate
        if (settled) return;
        void upload.abort(true).catch(() => {});
        reject(new UploadError('Upload failed: An error occurred during upload'));
      },
      { once: true },
    );
    void upload.findPreviousUploads().then((previous) => {
      if (signal?.aborted) return;
      if (previous[0]) upload.resumeFromPreviousUpload(previous[0]);
      upload.start();
    });
  });
}

function uploadErrorOf(error: Error | DetailedError): UploadError {
  const response = 'originalResponse' in error ? error.originalResponse : null;
  if (!response) {
    return new UploadError('Network error: Connection failed. Please check your internet and try again.');
  }
  const body = parseJson(response.getBody()) as { message?: unknown } | null;
  const message = typeof body?.message === 'string' ? body.message : undefined;
  return new UploadError(`Upload failed: Server error (${response.getStatus()}). Please try again.`, message);
}
