import { createHash, randomBytes, randomUUID } from 'node:crypto';
import type { NextFunction, Request, Response } from 'express';
import type pg from 'pg';

export const VISITOR_COOKIE = 'tg_visitor';
/** what a cookie from before decision 068 held: the visitor id itself */
const OLD_COOKIE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const SECRET = /^[A-Za-z0-9_-]{43}$/;
/** browsers cap cookie lifetimes at 400 days */
const VISITOR_COOKIE_MS = 400 * 24 * 3600 * 1000;

declare module 'express-serve-static-core' {
  interface Request {
    /** the browser's visitor id, from a tg_visitor cookie this server issued */
    visitor?: string;
  }
}

const hashOf = (secret: string) => createHash('sha256').update(secret).digest();

/**
 * A browser's identity across logins: issued on the first successful login, long-lived and httpOnly.
 * Likes follow it (one like per browser, whatever the session), and the login limits count a known
 * browser on its own (docs/decisions/020). The cookie holds a random secret the server keeps only a
 * hash of; the visitor id it stands for is never the cookie, so an id that reached anyone (old mural
 * answers, old events in an export) does not let them act as that browser (decision 068).
 */
export class Visitors {
  readonly #db: Pick<pg.Pool, 'query'>;
  readonly #secure: boolean;

  constructor(db: Pick<pg.Pool, 'query'>, secure: boolean) {
    this.#db = db;
    this.#secure = secure;
  }

  /**
   * Sets req.visitor when the request carries a visitor secret this server issued, or a cookie from
   * before secrets (the visitor id) beside a live session of that same visitor: only that browser has
   * both, and it is given a secret at its next login.
   */
  identify() {
    return async (req: Request, _res: Response, next: NextFunction) => {
      const raw = (req.cookies as Record<string, unknown> | undefined)?.[VISITOR_COOKIE];
      if (typeof raw === 'string' && SECRET.test(raw)) {
        const { rows } = await this.#db.query<{ id: string }>(`SELECT id FROM visitors WHERE secret_hash = $1`, [
          hashOf(raw),
        ]);
        if (rows[0]) req.visitor = rows[0].id;
      } else if (typeof raw === 'string' && OLD_COOKIE.test(raw) && req.session?.visitorId === raw) {
        req.visitor = raw;
      }
      next();
    };
  }

  /**
   * Gives a browser from before secrets its secret on its first request with a live session of its
   * visitor (after loadSession): once, so that two requests at once do not hand out two secrets.
   */
  upgrade() {
    return async (req: Request, res: Response, next: NextFunction) => {
      const raw = (req.cookies as Record<string, unknown> | undefined)?.[VISITOR_COOKIE];
      if (typeof raw === 'string' && OLD_COOKIE.test(raw) && req.session?.visitorId === raw) {
        const secret = randomBytes(32).toString('base64url');
        const { rowCount } = await this.#db.query(
          `UPDATE visitors SET secret_hash = $2 WHERE id = $1 AND secret_hash IS NULL`,
          [raw, hashOf(secret)],
        );
        if (rowCount) this.#setCookie(res, secret);
      }
      next();
    };
  }

  #setCookie(res: Response, secret: string) {
    res.cookie(VISITOR_COOKIE, secret, {
      httpOnly: true,
      sameSite: 'lax',
      secure: this.#secure,
      maxAge: VISITOR_COOKIE_MS,
      path: '/api',
    });
  }

  /** The public id the visitor's strokes carry: an HMAC under the database's key (migration 022). */
  async authorId(visitorId: string): Promise<string> {
    const { rows } = await this.#db.query<{ id: string }>(`SELECT public_author_id($1) AS id`, [visitorId]);
    return rows[0]!.id;
  }

  /**
   * The browser's visitor id, issuing one when it has none, and (re)setting its cookie. A browser that
   * came with its secret keeps it; one without (new, or from before secrets) gets a new secret.
   */
  async forBrowser(req: Request, res: Response): Promise<string> {
    const raw = (req.cookies as Record<string, unknown> | undefined)?.[VISITOR_COOKIE];
    let secret = req.visitor && typeof raw === 'string' && SECRET.test(raw) ? raw : undefined;
    const id = req.visitor ?? randomUUID();
    if (!secret) {
      secret = randomBytes(32).toString('base64url');
      await this.#db.query(
        `INSERT INTO visitors (id, secret_hash) VALUES ($1, $2)
         ON CONFLICT (id) DO UPDATE SET secret_hash = EXCLUDED.secret_hash`,
        [id, hashOf(secret)],
      );
    }
    this.#setCookie(res, secret);
    return id;
  }
}
