import type { ErrorRequestHandler } from 'express';
import { z } from 'zod';
import { DomainError } from '#events/errors.ts';

/** An answer other than 2xx, with the message the client shows. */
export class HttpError extends Error {
  readonly status: number;
  readonly body: Record<string, unknown>;
  readonly headers: Record<string, string>;
  constructor(
    status: number,
    message: string,
    extra: Record<string, unknown> = {},
    headers: Record<string, string> = {},
  ) {
    super(message);
    this.status = status;
    this.body = { message, ...extra };
    this.headers = headers;
  }
}

export const notFound = (what: string) => new HttpError(404, `${what} not found`);

/** CONTRACT §9: an upload that would not fit before the disk's reserve or the store's cap. */
export const storageFull = () => new HttpError(507, 'Storage is full');

export function validationError(error: z.ZodError): HttpError {
  const errors = error.issues.map((i) => ({ path: i.path.join('.'), message: i.message }));
  return new HttpError(400, errors[0]?.message ?? 'Invalid input', { errors });
}

/** NUL, which PostgreSQL text cannot hold, and UTF-16 halves without their pair. */
// oxlint-disable-next-line no-control-regex -- NUL is what this looks for
const UNSTORABLE = /\u0000|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

const mayHoldText = (value: unknown) => typeof value === 'string' || (typeof value === 'object' && value !== null);

/**
 * The path of the first string, key included, that cannot be stored as text; undefined when all can.
 * Numbers are passed over without a path made for each: a drawing's recording or a mural stroke holds
 * tens of thousands, and a path per number held the event loop for 0.2 s on a large recording.
 */
export function unstorableText(input: unknown): string[] | undefined {
  if (typeof input === 'string') return UNSTORABLE.test(input) ? [] : undefined;
  if (typeof input !== 'object' || input === null) return undefined;
  if (Array.isArray(input)) {
    for (let i = 0; i < input.length; i++) {
      const value: unknown = input[i];
      if (!mayHoldText(value)) continue;
      const found = unstorableText(value);
      if (found) return [String(i), ...found];
    }
    return undefined;
  }
  for (const [key, value] of Object.entries(input)) {
    if (UNSTORABLE.test(key)) return [key];
    if (!mayHoldText(value)) continue;
    const found = unstorableText(value);
    if (found) return [key, ...found];
  }
  return undefined;
}

/** Parses input with a schema, answering 400 with the schema's own messages. */
export function parseInput<S extends z.ZodType>(schema: S, input: unknown): z.output<S> {
  const bad = unstorableText(input);
  if (bad) {
    const field = bad.join('.') || 'input';
    const message = `${field} contains characters that are not allowed`;
    throw new HttpError(400, message, { errors: [{ path: field, message }] });
  }
  const result = schema.safeParse(input ?? {});
  if (!result.success) throw validationError(result.error);
  return result.data;
}

/** The last handler: known failures become their status, anything else a logged 500. */
export const errorHandler: ErrorRequestHandler = (error, _req, res, _next) => {
  const fail = (status: number, body: Record<string, unknown>) => {
    if (!res.headersSent) res.status(status).json(body);
    else res.destroy();
  };
  if (error instanceof HttpError) {
    if (!res.headersSent) res.set(error.headers);
    return fail(error.status, error.body);
  }
  if (error instanceof DomainError) return fail(error.status, { message: error.message, ...error.details });
  if (error instanceof z.ZodError) {
    const e = validationError(error);
    return fail(e.status, e.body);
  }
  // body-parser's own failures carry a type and a status
  const type = (error as { type?: string }).type;
  if (type === 'entity.parse.failed') return fail(400, { message: 'Malformed JSON' });
  if (type === 'entity.too.large') return fail(413, { message: 'File too large' });
  // a string that slipped past parseInput and that PostgreSQL cannot hold as text
  const code = (error as { code?: string }).code;
  if (code === '22021' || code === '22P05')
    return fail(400, { message: 'Text contains characters that are not allowed' });
  const status = (error as { status?: number }).status;
  if (typeof status === 'number' && status >= 400 && status < 500) {
    return fail(status, { message: (error as Error).message || 'Bad request' });
  }
  // the database or the object store cannot be reached: a passing outage, not a bug (decision 019)
  if (isUnreachable(error)) {
    if (!res.headersSent) res.set('Retry-After', '5');
    return fail(503, { message: 'The gallery cannot reach its storage right now. Please try again in a moment.' });
  }
  // logged once, on the request's own line (api/observability/requestLog.ts): its id, the error, the stack
  res.err = error instanceof Error ? error : new Error(String(error));
  fail(500, { message: 'Something went wrong on our side. Please try again.' });
};

const UNREACHABLE_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'EHOSTUNREACH',
  'ENOTFOUND',
  'EAI_AGAIN',
]);

/**
 * A connection that failed or broke (socket errors; PostgreSQL's 08xxx and 57P0x; a pooled pg client
 * whose connection broke before its next query), anywhere in the cause chain.
 */
export function isUnreachable(error: unknown): boolean {
  for (let e = error as { code?: unknown; cause?: unknown } | undefined, depth = 0; e && depth < 5; depth++) {
    const code = typeof e.code === 'string' ? e.code : '';
    if (UNREACHABLE_CODES.has(code) || /^08...$/.test(code) || /^57P0[123]$/.test(code)) return true;
    if (e instanceof Error && /Connection terminated|socket hang up|is not queryable/.test(e.message)) return true;
    e = e.cause as typeof e;
  }
  return false;
}
