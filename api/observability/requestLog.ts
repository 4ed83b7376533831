import type { IncomingMessage, ServerResponse } from 'node:http';
import { pinoHttp } from 'pino-http';
import { errorFields, log } from './logger.ts';

const QUIET = /^\/(health-check|ready|metrics)(\?|$)/;

/**
 * One JSON line per answer, carrying the request id the client sees in X-Request-Id and the events
 * store in their metadata. Neither addresses nor headers are logged: both are personal data here.
 * A 500's line is the error line: the error handler hands the failure over as `res.err`, so it is
 * logged once, with its stack, under the request's id.
 */
export const requestLog = pinoHttp({
  logger: log,
  genReqId: (req: IncomingMessage) => (req as IncomingMessage & { requestId?: string }).requestId ?? '',
  customLogLevel: (req, res: ServerResponse, error) => {
    // 503 is a passing outage (decision 019): worth a warning, not an error line per request
    if (res.statusCode === 503) return QUIET.test(req.url ?? '') ? 'silent' : 'warn';
    if (error || res.err || res.statusCode >= 500) return 'error';
    // probes and scrapes are logged only when they fail
    return QUIET.test(req.url ?? '') ? 'silent' : 'info';
  },
  // without `res.err` the error is pino-http's own "failed with status code N", whose stack says nothing
  customErrorObject: (_req, res, _error, { err, ...fields }: { err: Error }) => (res.err ? { err, ...fields } : fields),
  serializers: {
    req: (req: { id: string; method: string; url: string }) => ({ id: req.id, method: req.method, url: req.url }),
    res: (res: { statusCode: number }) => ({ statusCode: res.statusCode }),
    err: errorFields,
  },
});
