import type { IncomingMessage, ServerResponse } from 'node:http';
import { pinoHttp } from 'pino-http';
import { log } from './logger.ts';

const QUIET = /^\/(health-check|ready|metrics)(\?|$)/;

/**
 * One JSON line per answer, carrying the request id the client sees in X-Request-Id and the events
 * store in their metadata. Neither addresses nor headers are logged: both are personal data here.
 */
export const requestLog = pinoHttp({
  logger: log,
  genReqId: (req: IncomingMessage) => (req as IncomingMessage & { requestId?: string }).requestId ?? '',
  autoLogging: { ignore: (req) => QUIET.test(req.url ?? '') },
  // 503 is a passing outage (decision 019): worth a warning, not an error line per request
  customLogLevel: (_req, res: ServerResponse, error) =>
    res.statusCode === 503 ? 'warn' : error || res.statusCode >= 500 ? 'error' : 'info',
  serializers: {
    req: (req: { id: string; method: string; url: string }) => ({ id: req.id, method: req.method, url: req.url }),
    res: (res: { statusCode: number }) => ({ statusCode: res.statusCode }),
    // the error handler logs a real failure with its stack; here its name and message are enough
    err: (err: Error) => ({ type: err.name, message: err.message }),
  },
});
