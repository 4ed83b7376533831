import type { NextFunction, Request, Response } from 'express';
import { secretsEqual } from '../auth/sessions.ts';
import { HttpError } from './errors.ts';

/**
 * Detail-page deletes carry the admin key (CONTRACT §2): in Authorization (`Bearer KEY` or the bare
 * key), or, for artwork comments, in the admin-key header. Either header is accepted everywhere.
 */
export function requireAdminKey(adminKey: string) {
  return (req: Request, _res: Response, next: NextFunction) => {
    const given = (req.get('admin-key') ?? req.get('authorization') ?? '').replace(/^Bearer\s+/i, '').trim();
    if (!given) throw new HttpError(401, 'Admin key required');
    if (!secretsEqual(given, adminKey)) throw new HttpError(403, 'Invalid admin key');
    next();
  };
}
