import { AsyncLocalStorage } from 'node:async_hooks';

/** The request being answered, for code far from `req` (the job queue tags jobs with its id). */
export const requestContext = new AsyncLocalStorage<{ requestId: string }>();

export function currentRequestId(): string | undefined {
  return requestContext.getStore()?.requestId;
}
