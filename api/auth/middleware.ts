import type { NextFunction, Request, Response } from 'express';
import { HttpError } from '../http/errors.ts';
import type { Session, SessionRole, SessionStore } from './sessions.ts';

export const SESSION_COOKIE = 'tg_session';

declare module 'express-serve-static-core' {
  interface Request {
    session?: Session;
    requestId: string;
    /** when the request reached the app (`performance.now()`): what an auditor's read cost, with its answer */
    arrivedAt: number;
  }
}

export function tokenFrom(req: Request): string | undefined {
  const header = req.get('x-session-token');
  if (header) return header;
  const cookie = (req.cookies as Record<string, string> | undefined)?.[SESSION_COOKIE];
  return typeof cookie === 'string' ? cookie : undefined;
}

/** Attaches the session, if any; never refuses. */
export function loadSession(sessions: SessionStore) {
  return async (req: Request, _res: Response, next: NextFunction) => {
    req.session = await sessions.find(tokenFrom(req));
    next();
  };
}

export function requireSession(req: Request, _res: Response, next: NextFunction) {
  if (!req.session) throw new HttpError(401, 'Authentication required');
  next();
}

export function requireRole(...roles: SessionRole[]) {
  const label = roles.includes('auditor') ? 'Admin or auditor access required' : 'Admin access required';
  return (req: Request, _res: Response, next: NextFunction) => {
    if (!req.session) throw new HttpError(401, 'Authentication required');
    if (!roles.includes(req.session.role)) throw new HttpError(403, label);
    next();
  };
}

/** Auditors read the history; they never write (logout aside). */
export function auditorsOnlyRead(req: Request, _res: Response, next: NextFunction) {
  const reading = req.method === 'GET' || req.method === 'HEAD';
  if (req.session?.role === 'auditor' && !reading && req.path !== '/auth/logout') {
    throw new HttpError(403, 'Auditors have read-only access');
  }
  next();
}

export const isAdmin = (req: Request) => req.session?.role === 'admin';
