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
  customLogLevel: (_req, res: ServerResponse, error) => (error || res.statusCode >= 500 ? 'error' : 'info'),
  serializers: {
    req: (req: { id: string; method: string; url: string }) => ({ id: req.id, method: req.method, url: req.url }),
    res: (res: { statusCode: number }) => ({ statusCode: res.statusCode }),
  },
});
