import { HttpError } from '../http/errors.ts';

/** The answer to a read of the log stopped by the statement timeout: 503, never a 500. */
export function readTooLong() {
  return new HttpError(
    503,
    'This read of the log took too long and was stopped: narrow it (a filter, fewer events) and try again',
    {},
    { 'Retry-After': '5' },
  );
}
