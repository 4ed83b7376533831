import type { Request, Response } from 'express';
import { catalogReached } from '#projections/catalog/readYourWrites.ts';
import type { Deps } from '../deps.ts';

/**
 * The catalog position a browser's last write is in. Any API process that knows less reads the
 * position from the database for that browser's gallery pages (decision 028). Not a secret: a
 * forged value only costs its own browser that query.
 */
export const WROTE_COOKIE = 'tg_wrote';

/**
 * Answers a write once the catalog has it, and makes sure the writer's next gallery page has it on
 * every process: this process now knows the catalog is there, and the browser carries the position
 * to whichever process answers next. False when the catalog did not get there in time.
 */
export async function readYourWrites(
  deps: Pick<Deps, 'pool' | 'realtime' | 'config'>,
  res: Response,
  position: number | undefined,
  timeoutMs?: number,
): Promise<boolean> {
  const at = await catalogReached(deps.pool, position, timeoutMs);
  if (at === null) return false;
  if (position === undefined) return true;
  const { known } = deps.realtime;
  known.advance(at);
  // never below what the browser brought, nor what this process knows now
  const floor = Math.max(known.at, wroteAt(res.req));
  res.cookie(WROTE_COOKIE, String(floor), {
    httpOnly: true,
    sameSite: 'lax',
    secure: deps.config.production,
    path: '/api',
  });
  return true;
}

/** The position the request's browser last wrote at; 0 when none (or not a position). */
export function wroteAt(req: Request): number {
  const value = Number((req.cookies as Record<string, string> | undefined)?.[WROTE_COOKIE]);
  return Number.isSafeInteger(value) && value > 0 ? value : 0;
}
