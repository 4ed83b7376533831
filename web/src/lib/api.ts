import { getSessionToken } from './session.ts';

/** A non-OK answer from the server; `message` follows spec §8. */
export class ApiError extends Error {
  readonly status: number;
  readonly statusText: string;
  /** The `message` field of a JSON error body, when there was one. */
  readonly serverMessage: string | undefined;

  constructor(status: number, statusText: string, message: string, serverMessage?: string) {
    super(message);
    this.name = 'ApiError';
    this.status = status;
    this.statusText = statusText;
    this.serverMessage = serverMessage;
  }
}

export interface RequestOptions {
  method?: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  body?: unknown;
  /** a body that is not JSON, sent as is with its own type (a caption track, decision 123) */
  file?: { text: string; type: string };
  headers?: Record<string, string>;
  signal?: AbortSignal;
  /** Admin-panel queries raise '{status}: {statusText}' (spec §8) instead of the body's message. */
  errorStyle?: 'message' | 'status';
  /** the answer's body as text (a caption track) instead of JSON */
  as?: 'json' | 'text';
}

/** The one request helper: credentials always, JSON content type only with a body, the stored token. */
export async function api<T>(path: string, options: RequestOptions = {}): Promise<T> {
  return (await apiAt<T>(path, options)).data;
}

/**
 * `api`, and the catalog position the answer's data was read at (`X-Log-Position`; null when the
 * answer names none): live messages at or before it are already in the data (decision 140).
 */
export async function apiAt<T>(
  path: string,
  options: RequestOptions = {},
): Promise<{ data: T; position: number | null }> {
  const { method = options.body === undefined ? 'GET' : 'POST', body, signal } = options;
  const headers: Record<string, string> = { Accept: 'application/json', ...options.headers };
  if (body !== undefined) headers['Content-Type'] = 'application/json';
  if (options.file) headers['Content-Type'] = options.file.type;
  const token = getSessionToken();
  if (token) headers['x-session-token'] = token;

  const response = await fetch(path, {
    method,
    headers,
    credentials: 'include',
    body: options.file ? options.file.text : body === undefined ? undefined : JSON.stringify(body),
    signal,
  });

  const text = await response.text();
  if (!response.ok) {
    const serverMessage = jsonMessage(text);
    const message =
      options.errorStyle === 'status'
        ? `${response.status}: ${response.statusText}`
        : (serverMessage ?? (text.trim() || `Error ${response.status}: ${response.statusText}`));
    throw new ApiError(response.status, response.statusText, message, serverMessage);
  }
  const data = (options.as === 'text' ? text : parseJson(text)) as T;
  const position = response.headers.get('X-Log-Position');
  return { data, position: position !== null && /^\d+$/.test(position) ? Number(position) : null };
}

/** JSON from a response's text; null when it is empty or not JSON. */
export function parseJson(text: string): unknown {
  if (!text) return null;
  try {
    return JSON.parse(text);
  } catch {
    return null;
  }
}

function jsonMessage(text: string): string | undefined {
  const json = parseJson(text);
  if (json && typeof json === 'object' && 'message' in json && typeof json.message === 'string' && json.message) {
    return json.message;
  }
  return undefined;
}

/** The server's own message for a failed request, if it sent one (for toasts with a fallback text). */
export function serverMessageOf(error: unknown): string | undefined {
  return error instanceof ApiError ? error.serverMessage : undefined;
}

export function isUnauthorized(error: unknown): boolean {
  return error instanceof ApiError && error.status === 401;
}
