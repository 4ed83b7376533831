import type { Request, RequestHandler, Response } from 'express';
import { rateLimit, type Options } from 'express-rate-limit';
import type pg from 'pg';
import type { PersonalData } from '../personalData.ts';
import { addressGroup } from './address.ts';
import { PostgresStore } from './postgresStore.ts';
import { securityEvent, type SecurityEventName } from './securityLog.ts';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const NO_CAP = 1_000_000_000;

/** The limits, with their numbers (SECURITY.md and docs/decisions/020 list them). */
export const LIMITS = {
  /** failed passwords or riddle answers from one address (IPv6 /64) without a known visitor cookie */
  secretPerAddress: { limit: 10, windowMs: MINUTE },
  /** failed passwords from one browser holding a visitor cookie the server issued */
  secretPerVisitor: { limit: 10, windowMs: MINUTE },
  /** browsers with visitor cookies, together, from one address */
  secretKnownPerAddress: { limit: 30, windowMs: HOUR },
  /** every failure against one secret (ASVS: at most 100 an hour) */
  secretOverall: { limit: 100, windowMs: HOUR },
  submissions: { limit: 30, windowMs: HOUR },
  comments: { limit: 30, windowMs: 10 * MINUTE },
  likes: { limit: 120, windowMs: MINUTE },
  /** strokes on the mural from one visitor (CONTRACT §8: more than 10 a second is refused) */
  muralStrokes: { limit: 10, windowMs: 1000 },
  /** uploads from one address (IPv6 /64) a day, whatever the visitor: minting visitors does not help */
  uploadsPerAddress: { limit: 100, windowMs: 24 * HOUR },
} as const;

export const addressKey = (req: Request) => addressGroup(req.ip ?? 'unknown');

interface LimitSpec {
  name: string;
  limit: number | ((req: Request) => number);
  windowMs: number;
  key: (req: Request) => string;
  skip?: (req: Request) => boolean;
  /** count only failed attempts: a response with this status */
  failureStatus?: number;
  /** count only what was done: refused input (4xx) costs nothing */
  countSuccessesOnly?: boolean;
  event: SecurityEventName;
  message: string;
}

/** Builds express-rate-limit middlewares that share one PostgreSQL table across processes. */
export function limiterFactory(db: Pick<pg.Pool, 'query'>, personal: PersonalData) {
  return (spec: LimitSpec): RequestHandler => {
    const options: Partial<Options> = {
      store: new PostgresStore(db, `${spec.name}:`),
      windowMs: spec.windowMs,
      limit: spec.limit,
      keyGenerator: spec.key,
      skip: spec.skip,
      standardHeaders: 'draft-6',
      legacyHeaders: false,
      validate: { keyGeneratorIpFallback: false, ip: false, trustProxy: false, xForwardedForHeader: false },
      handler: (req: Request, res: Response) => {
        void securityEvent(req, personal, spec.event, { limit: spec.name });
        res.status(429).json({ success: false, message: spec.message });
      },
    };
    if (spec.countSuccessesOnly) options.skipFailedRequests = true;
    if (spec.failureStatus !== undefined) {
      const failed = spec.failureStatus;
      options.skipSuccessfulRequests = true;
      options.requestWasSuccessful = (_req, res) => res.statusCode !== failed;
    }
    return rateLimit(options);
  };
}

const TRY_LATER = 'Too many attempts. Please wait a minute and try again.';
const SLOW_DOWN = 'Too many requests. Please wait a little and try again.';

/**
 * Guessing a shared secret (a password, the riddle, the admin key), counted in failures. A browser the
 * server knows (a visitor cookie it issued) is counted on its own, so an attacker behind the office
 * address, or one flooding the overall cap, does not lock the right password out for colleagues.
 */
export function secretLimits(
  make: ReturnType<typeof limiterFactory>,
  secret: 'password' | 'riddle' | 'admin_key',
  trusted: (req: Request) => boolean,
  failureStatus: number,
): RequestHandler[] {
  const event = secret === 'admin_key' ? 'admin_key.limited' : 'login.limited';
  const common = { failureStatus, event, message: TRY_LATER } as const;
  const byAddress = (req: Request) => addressKey(req);
  return [
    make({ name: `${secret}:addr`, ...LIMITS.secretPerAddress, key: byAddress, skip: trusted, ...common }),
    make({
      name: `${secret}:visitor`,
      ...LIMITS.secretPerVisitor,
      key: (req) => req.visitor ?? req.session?.visitorId ?? 'none',
      skip: (req) => !trusted(req),
      ...common,
    }),
    make({
      name: `${secret}:known-addr`,
      ...LIMITS.secretKnownPerAddress,
      key: byAddress,
      skip: (req) => !trusted(req),
      ...common,
    }),
    // every failure counts here; only unknown browsers are turned away by it
    make({
      name: `${secret}:all`,
      windowMs: LIMITS.secretOverall.windowMs,
      limit: (req) => (trusted(req) ? NO_CAP : LIMITS.secretOverall.limit),
      key: () => 'all',
      ...common,
    }),
  ];
}

/** Writes by one visitor (a session's visitor id; the browser's, across logins). */
export function writeLimit(
  make: ReturnType<typeof limiterFactory>,
  name: 'submissions' | 'comments' | 'likes' | 'muralStrokes',
): RequestHandler {
  return make({
    name,
    ...LIMITS[name],
    key: (req) => req.session?.visitorId ?? addressKey(req),
    countSuccessesOnly: true,
    event: 'request.limited',
    message: SLOW_DOWN,
  });
}

/** Uploads from one address (IPv6 /64) a day; the per-visitor allowance is in api/media/uploadQuota.ts. */
export function uploadsPerAddress(make: ReturnType<typeof limiterFactory>): RequestHandler {
  return make({
    name: 'uploads:addr',
    ...LIMITS.uploadsPerAddress,
    key: addressKey,
    event: 'request.limited',
    message: SLOW_DOWN,
  });
}
