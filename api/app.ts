import fs from 'node:fs';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import compression from 'compression';
import cookieParser from 'cookie-parser';
import express from 'express';
import { adminRoutes } from './admin/routes.ts';
import { keepsakeRoutes } from './keepsake/routes.ts';
import { montageRoutes } from './montage/routes.ts';
import { artworkRoutes } from './artworks/routes.ts';
import { auditorsOnlyRead, loadSession, requireSession } from './auth/middleware.ts';
import { authRoutes } from './auth/routes.ts';
import type { Deps } from './deps.ts';
import { engagementRoutes } from './engagement/routes.ts';
import { galleryRoutes } from './gallery/routes.ts';
import { imageRoutes } from './images/routes.ts';
import { mineRoutes } from './mine/routes.ts';
import { historyRoutes } from './history/routes.ts';
import { Visitors } from './auth/visitor.ts';
import { apiGuards } from './limits/guards.ts';
import { mediaRoutes } from './media/routes.ts';
import { muralRoutes } from './mural/routes.ts';
import { healthRoutes } from './observability/health.ts';
import { httpMetrics } from './observability/metrics.ts';
import { requestContext } from './observability/requestContext.ts';
import { requestLog } from './observability/requestLog.ts';
import { showRoutes } from './show/routes.ts';
import { strokeRoutes } from './show/strokes.ts';
import { storyRoutes } from './stories/routes.ts';
import { errorHandler, HttpError } from './http/errors.ts';
import { jsonBodies } from './http/jsonBody.ts';
import { securityHeaders } from './http/securityHeaders.ts';

const LARGE_BODIES = new Set(['POST /artworks']);
/** The only calls answered without a session (CONTRACT §2). */
const PUBLIC_CALLS = new Set(['POST /auth/login', 'POST /auth/riddle', 'GET /gate']);

export const WEB_DIR = path.resolve(import.meta.dirname, '../dist/web');

/** Public routes first; everything else under /api needs a session. */
export function createApp(deps: Deps) {
  const app = express();
  app.disable('x-powered-by');
  app.set('trust proxy', deps.config.trustProxy);
  app.use((req, res, next) => {
    req.arrivedAt = performance.now();
    req.requestId = randomUUID();
    res.set('X-Request-Id', req.requestId);
    requestContext.run({ requestId: req.requestId }, next);
  });
  app.use(requestLog);
  app.use(httpMetrics);
  app.use(securityHeaders(deps.config));
  app.use(compression());
  app.use(healthRoutes(deps, { metrics: deps.config.metricsPort === undefined }));

  const api = express.Router();
  api.use(cookieParser());
  api.use(loadSession(deps.sessions));
  // while guests ask for something, the auditor's reads keep to their share of the machine (decision 159)
  api.use((req, _res, next) => {
    if (req.session?.role === 'guest') deps.auditorPace.roomAsked();
    next();
  });
  api.use(new Visitors(deps.pool, deps.config.production).upgrade());
  // the session is checked before any body is read: without one, the answer is 401 whatever was sent
  api.use((req, res, next) =>
    PUBLIC_CALLS.has(`${req.method} ${req.path}`) ? next() : requireSession(req, res, next),
  );
  api.use(auditorsOnlyRead);
  const guards = apiGuards(app, deps);
  api.use(guards.router);
  api.use(jsonBodies((req) => LARGE_BODIES.has(`${req.method} ${req.path}`)));
  api.use(authRoutes(guards.auth));
  api.use(galleryRoutes(deps));
  api.use(imageRoutes(deps));
  api.use(artworkRoutes(deps));
  api.use(storyRoutes(deps));
  api.use(mediaRoutes(deps));
  api.use(engagementRoutes(deps));
  api.use(muralRoutes(deps));
  api.use(showRoutes(deps));
  api.use(strokeRoutes(deps));
  api.use(historyRoutes(deps));
  api.use(keepsakeRoutes(deps));
  api.use(mineRoutes(deps));
  api.use(montageRoutes(deps));
  api.use(adminRoutes(deps));
  api.use((req) => {
    throw new HttpError(404, `No such call: ${req.method} ${req.baseUrl}${req.path}`);
  });
  app.use('/api', api);

  if (fs.existsSync(path.join(WEB_DIR, 'index.html'))) {
    // Vite's file names carry a hash of their content: they never change, so browsers keep them
    app.use('/assets', express.static(path.join(WEB_DIR, 'assets'), { immutable: true, maxAge: '1y' }));
    // a file of an older build is gone: 404, not the page, which a browser would try to run as a script
    app.use('/assets', (_req, res) => void res.status(404).type('text/plain').send('Not found'));
    app.use(express.static(WEB_DIR, { index: false, maxAge: '1h' }));
    app.get(/.*/, (_req, res) => res.sendFile(path.join(WEB_DIR, 'index.html')));
  }
  app.use(errorHandler);
  return app;
}
