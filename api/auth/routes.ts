import { Router, type Request, type Response } from 'express';
import { z } from 'zod';
import type { Config } from '../config.ts';
import { HttpError, parseInput } from '../http/errors.ts';
import type { SecretLimits } from '../limits/limits.ts';
import { securityEvent } from '../limits/securityLog.ts';
import type { PersonalData } from '../personalData.ts';
import { dateIn, numberInWords, type Clock } from '../time.ts';
import { SESSION_COOKIE, requireSession } from './middleware.ts';
import { SESSION_TIMEOUTS, secretsEqual, type SessionRole, type SessionStore } from './sessions.ts';
import type { Visitors } from './visitor.ts';

const WRONG_PASSWORD = 'Incorrect password. Please try again.';
const NAME_LENGTH = 'Name must be 2-60 characters';
const Login = z.object({
  password: z.string({ error: 'Password is required' }).max(1000),
  // admins and auditors may say who they are: recorded as the actor of their events (CONTRACT §6)
  name: z
    .string({ error: 'Name must be text' })
    .trim()
    .max(60, NAME_LENGTH)
    .refine((v) => v === '' || v.length >= 2, NAME_LENGTH)
    .optional(),
});
const Riddle = z.object({ answer: z.string({ error: 'Answer is required' }).max(1000) });

export interface AuthDeps {
  config: Config;
  clock: Clock;
  sessions: SessionStore;
  visitors: Visitors;
  personal: PersonalData;
  passwordLimits: SecretLimits;
  riddleLimits: SecretLimits;
  onLogout: (tokenHash: string) => void;
}

export function authRoutes(deps: AuthDeps) {
  const { config, clock, sessions, visitors, personal, passwordLimits, riddleLimits, onLogout } = deps;
  const router = Router();
  const riddleToday = () => dateIn(config.timeZone, clock()) === config.tribute.birthday;

  function roleFor(password: string): SessionRole | undefined {
    // every comparison runs, so timing does not tell which secret was close
    const matches: Array<[SessionRole, boolean]> = [
      ['admin', secretsEqual(password, config.adminPassword)],
      ['guest', secretsEqual(password, config.galleryPassword)],
      ['auditor', !!config.auditorPassword && secretsEqual(password, config.auditorPassword)],
    ];
    return matches.find(([, ok]) => ok)?.[0];
  }

  /** A new login in a browser ends the session it had; the visitor id stays the browser's. */
  async function signIn(req: Request, res: Response, role: SessionRole, name?: string) {
    if (req.session) {
      await sessions.end(req.session);
      onLogout(req.session.tokenHash);
    }
    const visitorId = await visitors.forBrowser(req, res);
    const { token, session } = await sessions.create(role, visitorId);
    if (name && role !== 'guest') await personal.nameSession(session.tokenHash, name);
    res.cookie(SESSION_COOKIE, token, {
      httpOnly: true,
      sameSite: 'lax',
      secure: config.production,
      maxAge: SESSION_TIMEOUTS[role].absoluteSeconds * 1000,
      path: '/',
    });
    res.json({ success: true, userType: role, sessionToken: token, message: 'Welcome!' });
  }

  router.get('/gate', (_req, res) => {
    res.json({ riddle: riddleToday() ? `How old is ${config.tribute.name} turning?` : null });
  });

  router.post('/auth/login', visitors.identify(), passwordLimits.guard, async (req, res) => {
    const { password, name } = parseInput(Login, req.body);
    const role = roleFor(password);
    if (!role) {
      await passwordLimits.failed(req);
      await securityEvent(req, deps, 'login.failed');
      res.status(401).json({ success: false, message: WRONG_PASSWORD });
      return;
    }
    await signIn(req, res, role, name);
  });

  router.post('/auth/riddle', visitors.identify(), riddleLimits.guard, async (req, res) => {
    const { answer } = parseInput(Riddle, req.body);
    if (!riddleToday()) throw new HttpError(403, 'The riddle is only open on the birthday', { success: false });
    const normalised = answer.replace(/\s+/g, '').toLowerCase();
    if (!secretsEqual(normalised, numberInWords(config.tribute.age))) {
      await riddleLimits.failed(req);
      await securityEvent(req, deps, 'riddle.failed');
      res.status(401).json({ success: false, message: 'Not quite right!' });
      return;
    }
    await signIn(req, res, 'guest');
  });

  router.post('/auth/logout', requireSession, async (req, res) => {
    await sessions.end(req.session!);
    onLogout(req.session!.tokenHash);
    res.clearCookie(SESSION_COOKIE, { path: '/' });
    res.json({ success: true });
  });

  /** The role, and the browser's public author id (never the visitor id: decision 068). */
  router.get('/auth/session', requireSession, async (req, res) => {
    res.json({ userType: req.session!.role, authorId: await visitors.authorId(req.session!.visitorId) });
  });

  router.get('/tribute', requireSession, (_req, res) => {
    const t = config.tribute;
    res.json({
      name: t.name,
      welcomeCutoff: t.welcomeCutoff,
      celebrationStart: t.celebrationStart,
      celebrationEnd: t.celebrationEnd,
    });
  });

  return router;
}
