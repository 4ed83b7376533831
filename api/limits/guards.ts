import { Router, type Express, type NextFunction, type Request, type Response } from 'express';
import type { AuthDeps } from '../auth/routes.ts';
import { Visitors } from '../auth/visitor.ts';
import type { Deps } from '../deps.ts';
import type { AdminKeyGuard } from '../auth/adminKey.ts';
import { refuseCrossSite } from './crossSite.ts';
import { limiterFactory, secretLimits, uploadsPerAddress, writeLimit } from './limits.ts';

/** Answers carry sessions, tokens and personal data: no cache keeps them unless a route says so. */
function noStore(_req: Request, res: Response, next: NextFunction) {
  res.set('Cache-Control', 'no-store');
  next();
}

/**
 * Everything the API puts in front of its routes for security: the cross-site check, no-store, the
 * write limits, and the admin-key limits (left in app.locals for requireAdminKey). Returns the router
 * to mount after the session is loaded, and what the auth routes need.
 */
export function apiGuards(app: Express, deps: Deps): { router: Router; auth: AuthDeps } {
  const limiter = limiterFactory(deps.pool, deps);
  const visitors = new Visitors(deps.pool, deps.config.production);
  deps.sessions.bindToSecrets({
    guest: deps.config.galleryPassword,
    admin: deps.config.adminPassword,
    auditor: deps.config.auditorPassword,
  });
  const adminKeyGuard: AdminKeyGuard = {
    limits: secretLimits(deps.pool, deps, 'admin_key', (req) => req.session?.role === 'admin'),
    personal: deps.personal,
    clock: deps.clock,
  };
  const knownBrowser = (req: Request) => !!req.visitor;
  app.locals.adminKeyGuard = adminKeyGuard;

  const router = Router();
  router.use(noStore);
  router.use(refuseCrossSite(!!deps.config.trustProxy));
  const submissions = writeLimit(limiter, 'submissions');
  router.post(
    ['/artworks', '/stories', '/media', '/upload-direct', '/media/submit-optimized', '/uploads'],
    submissions,
  );
  router.post(['/upload-direct', '/media/submit-optimized', '/uploads'], uploadsPerAddress(limiter));
  router.post('/:kind/:id/comments', writeLimit(limiter, 'comments'));
  const edits = writeLimit(limiter, 'edits');
  router.patch('/mine/:kind/:id', edits);
  router.delete('/mine/:kind/:id', edits);
  const likes = writeLimit(limiter, 'likes');
  router.post(['/:kind/:id/likes', '/:kind/:id/like'], likes);
  router.delete('/:kind/:id/likes', likes);
  router.post('/:kind/:id/reactions', writeLimit(limiter, 'reactions', 'Too many reactions. Please wait a moment.'));
  router.post('/:kind/:id/views', writeLimit(limiter, 'views'));
  router.post('/mural/strokes', writeLimit(limiter, 'muralStrokes'));

  return {
    router,
    auth: {
      config: deps.config,
      clock: deps.clock,
      sessions: deps.sessions,
      visitors,
      personal: deps.personal,
      passwordLimits: secretLimits(deps.pool, deps, 'password', knownBrowser),
      riddleLimits: secretLimits(deps.pool, deps, 'riddle', knownBrowser),
      onLogout: (tokenHash) => deps.realtime.disconnectSession(tokenHash),
    },
  };
}
