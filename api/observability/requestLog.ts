import type { IncomingMessage, ServerResponse } from 'node:http';
import { pinoHttp } from 'pino-http';
import { errorFields, log } from './logger.ts';

const QUIET = /^\/(health-check|ready|metrics)(\?|$)/;
/** Card images: twenty to a gallery page, so a room opening it at once writes thousands of lines. */
const CARD_IMAGE = /^\/api\/images\//;

/**
 * The level an answer is logged at: errors and outages always; probes, scrapes and card images
 * (decision 150) only when they fail, or at debug; the rest at info.
 */
export function answerLevel(url: string, statusCode: number, failed: boolean) {
  // 503 is a passing outage (decision 019): worth a warning, not an error line per request
  if (statusCode === 503) return QUIET.test(url) ? 'silent' : 'warn';
  if (failed || statusCode >= 500) return 'error';
  if (QUIET.test(url)) return 'silent';
  return CARD_IMAGE.test(url) && statusCode < 400 ? 'debug' : 'info';
}

/**
 * One JSON line per answer, carrying the request id the client sees in X-Request-Id and the events
 * store in their metadata. Neither addresses nor headers are logged: both are personal data here.
 * A 500's line is the error line: the error handler hands the failure over as `res.err`, so it is
 * logged once, with its stack, under the request's id.
 */
export const requestLog = pinoHttp({
  logger: log,
  genReqId: (req: IncomingMessage) => (req as IncomingMessage & { requestId?: string }).requestId ?? '',
  customLogLevel: (req, res: ServerResponse, error) => answerLevel(req.url ?? '', res.statusCode, !!(error || res.err)),
  // without `res.err` the error is pino-http's own "failed with status code N", whose stack says nothing
  customErrorObject: (_req, res, _error, { err, ...fields }: { err: Error }) => (res.err ? { err, ...fields } : fields),
  serializers: {
    req: (req: { id: string; method: string; url: string }) => ({ id: req.id, method: req.method, url: req.url }),
    res: (res: { statusCode: number }) => ({ statusCode: res.statusCode }),
    err: errorFields,
  },
});
