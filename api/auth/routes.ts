import { Router, type Request, type Response } from 'express';
import { z } from 'zod';
import type { Config } from '../config.ts';
import { HttpError, parseInput } from '../http/errors.ts';
import { dateIn, numberInWords } from '../time.ts';
import { SESSION_COOKIE, requireSession } from './middleware.ts';
import { FailureLimiter } from './rateLimit.ts';
import { secretsEqual, type SessionRole, type SessionStore } from './sessions.ts';

const WRONG_PASSWORD = 'Incorrect password. Please try again.';
const Login = z.object({ password: z.string({ error: 'Password is required' }).max(1000) });
const Riddle = z.object({ answer: z.string({ error: 'Answer is required' }).max(1000) });

export function authRoutes(
  config: Config,
  sessions: SessionStore,
  onLogout: (tokenHash: string) => void,
  limiter = new FailureLimiter(),
) {
  const router = Router();
  const riddleToday = () => dateIn(config.timeZone) === config.tribute.birthday;

  function roleFor(password: string): SessionRole | undefined {
    // every comparison runs, so timing does not tell which secret was close
    const matches: Array<[SessionRole, boolean]> = [
      ['admin', secretsEqual(password, config.adminPassword)],
      ['guest', secretsEqual(password, config.galleryPassword)],
      ['auditor', !!config.auditorPassword && secretsEqual(password, config.auditorPassword)],
    ];
    return matches.find(([, ok]) => ok)?.[0];
  }

  function refuseWhileLimited(req: Request) {
    if (limiter.blocked(req.ip ?? '')) {
      throw new HttpError(429, 'Too many attempts. Please wait a minute and try again.', { success: false });
    }
  }

  async function signIn(res: Response, role: SessionRole) {
    const { token } = await sessions.create(role);
    res.cookie(SESSION_COOKIE, token, {
      httpOnly: true,
      sameSite: 'lax',
      secure: config.production,
      maxAge: 14 * 24 * 3600 * 1000,
      path: '/',
    });
    res.json({ success: true, userType: role, sessionToken: token, message: 'Welcome!' });
  }

  router.get('/gate', (_req, res) => {
    res.json({ riddle: riddleToday() ? `How old is ${config.tribute.name} turning?` : null });
  });

  router.post('/auth/login', async (req, res) => {
    refuseWhileLimited(req);
    const { password } = parseInput(Login, req.body);
    const role = roleFor(password);
    if (!role) {
      limiter.fail(req.ip ?? '');
      res.status(401).json({ success: false, message: WRONG_PASSWORD });
      return;
    }
    await signIn(res, role);
  });

  router.post('/auth/riddle', async (req, res) => {
    refuseWhileLimited(req);
    const { answer } = parseInput(Riddle, req.body);
    if (!riddleToday()) throw new HttpError(403, 'The riddle is only open on the birthday', { success: false });
    const normalised = answer.replace(/\s+/g, '').toLowerCase();
    if (!secretsEqual(normalised, numberInWords(config.tribute.age))) {
      limiter.fail(req.ip ?? '');
      res.status(401).json({ success: false, message: 'Not quite right!' });
      return;
    }
    await signIn(res, 'guest');
  });

  router.post('/auth/logout', requireSession, async (req, res) => {
    await sessions.end(req.session!);
    onLogout(req.session!.tokenHash);
    res.clearCookie(SESSION_COOKIE, { path: '/' });
    res.json({ success: true });
  });

  router.get('/auth/session', requireSession, (req, res) => {
    res.json({ userType: req.session!.role, visitorId: req.session!.visitorId });
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
