import type { NextFunction, Request, RequestHandler, Response } from 'express';
import { secretsEqual } from './sessions.ts';
import type { SecretLimits } from '../limits/limits.ts';
import { securityEvent } from '../limits/securityLog.ts';
import type { PersonalData } from '../personalData.ts';
import type { Clock } from '../time.ts';
import { HttpError } from '../http/errors.ts';

/** What createApp leaves in app.locals for the admin-key check: its limits and the event log. */
export interface AdminKeyGuard {
  limits: SecretLimits;
  personal: PersonalData;
  clock: Clock;
}

/** Runs middlewares one after another, as a route's own list would. */
function chain(handlers: RequestHandler[], req: Request, res: Response, done: NextFunction) {
  const step = (i: number, error?: unknown): void => {
    if (error !== undefined || i === handlers.length) return done(error);
    Promise.resolve(handlers[i]!(req, res, (e?: unknown) => step(i + 1, e))).catch(done);
  };
  step(0);
}

/**
 * Detail-page deletes carry the admin key (CONTRACT §2): in Authorization (`Bearer KEY` or the bare
 * key), or, for artwork comments, in the admin-key header. Either header is accepted everywhere.
 * Wrong keys are limited per address and overall (docs/decisions/020) and each is logged.
 */
export function requireAdminKey(adminKey: string) {
  const check = async (req: Request, _res: Response, next: NextFunction) => {
    const given = (req.get('admin-key') ?? req.get('authorization') ?? '').replace(/^Bearer\s+/i, '').trim();
    if (!given) throw new HttpError(401, 'Admin key required');
    if (!secretsEqual(given, adminKey)) {
      const guard = (req.app.locals as { adminKeyGuard?: AdminKeyGuard }).adminKeyGuard;
      if (guard) {
        await guard.limits.failed(req);
        await securityEvent(req, guard, 'admin_key.failed');
      }
      throw new HttpError(403, 'Invalid admin key');
    }
    next();
  };
  return (req: Request, res: Response, next: NextFunction) => {
    const guard = (req.app.locals as { adminKeyGuard?: AdminKeyGuard }).adminKeyGuard;
    chain(guard ? [guard.limits.guard, check] : [check], req, res, next);
  };
}
