import { randomUUID } from 'node:crypto';
import type { NextFunction, Request, Response } from 'express';
import type pg from 'pg';

export const VISITOR_COOKIE = 'tg_visitor';
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
/** browsers cap cookie lifetimes at 400 days */
const VISITOR_COOKIE_MS = 400 * 24 * 3600 * 1000;

declare module 'express-serve-static-core' {
  interface Request {
    /** the browser's visitor id, from a tg_visitor cookie this server issued */
    visitor?: string;
  }
}

/**
 * A browser's identity across logins: issued on the first successful login, long-lived and httpOnly.
 * Likes follow it (one like per browser, whatever the session), and the login limits count a known
 * browser on its own (docs/decisions/020). Only ids in the visitors table are honoured.
 */
export class Visitors {
  readonly #db: Pick<pg.Pool, 'query'>;
  readonly #secure: boolean;

  constructor(db: Pick<pg.Pool, 'query'>, secure: boolean) {
    this.#db = db;
    this.#secure = secure;
  }

  /** Sets req.visitor when the request carries a visitor cookie this server issued. */
  identify() {
    return async (req: Request, _res: Response, next: NextFunction) => {
      const raw = (req.cookies as Record<string, unknown> | undefined)?.[VISITOR_COOKIE];
      if (typeof raw === 'string' && UUID.test(raw)) {
        const { rowCount } = await this.#db.query(`SELECT 1 FROM visitors WHERE id = $1`, [raw]);
        if (rowCount) req.visitor = raw;
      }
      next();
    };
  }

  /** The browser's visitor id, issuing one (and its cookie) when it has none. */
  async forBrowser(req: Request, res: Response): Promise<string> {
    const id = req.visitor ?? randomUUID();
    if (!req.visitor) await this.#db.query(`INSERT INTO visitors (id) VALUES ($1)`, [id]);
    res.cookie(VISITOR_COOKIE, id, {
      httpOnly: true,
      sameSite: 'lax',
      secure: this.#secure,
      maxAge: VISITOR_COOKIE_MS,
      path: '/api',
    });
    return id;
  }
}
