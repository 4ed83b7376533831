import type { NextFunction, Request, RequestHandler, Response } from 'express';
import { rateLimit, type Options } from 'express-rate-limit';
import type pg from 'pg';
import type { Deps } from '../deps.ts';
import { addressGroup } from './address.ts';
import { PostgresStore } from './postgresStore.ts';
import { securityEvent, type SecurityEventName } from './securityLog.ts';

const SECOND = 1000;
const MINUTE = 60 * SECOND;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;
const MiB = 1024 * 1024;

/** The limits, with their numbers (SECURITY.md and docs/decisions/020 list them). */
export const LIMITS = {
  /** failed passwords or riddle answers from one address (IPv6 /64) without a known visitor cookie */
  secretPerAddress: { limit: 10, windowMs: MINUTE },
  /** the same, over an hour: one address guesses at most 100 times an hour (ASVS's figure, per guesser) */
  secretPerAddressHourly: { limit: 100, windowMs: HOUR },
  /** failed passwords from one browser holding a visitor cookie the server issued */
  secretPerVisitor: { limit: 10, windowMs: MINUTE },
  /** browsers with visitor cookies, together, from one address */
  secretKnownPerAddress: { limit: 30, windowMs: HOUR },
  /**
   * every failure against one secret, from anywhere: never refuses (a guesser does not control it, so
   * it would lock out the room); reaching it writes `guessing.widespread` to the security log
   */
  secretOverall: { limit: 100, windowMs: HOUR },
  submissions: { limit: 30, windowMs: HOUR },
  comments: { limit: 30, windowMs: 10 * MINUTE },
  /** a sender's edits and withdrawals of their own items (CONTRACT §11): each is an event in the log */
  edits: { limit: 30, windowMs: 10 * MINUTE },
  likes: { limit: 120, windowMs: MINUTE },
  /** reactions on the show from one visitor (CONTRACT §7: more than 5 a second are refused) */
  reactions: { limit: 5, windowMs: SECOND },
  /** views counted from one visitor (each item counts once; this bounds the calls) */
  views: { limit: 60, windowMs: MINUTE },
  /** strokes on the mural from one visitor (CONTRACT §8: more than 10 a second is refused) */
  muralStrokes: { limit: 10, windowMs: SECOND },
} as const;

/** The office behind one address that every per-address budget leaves room for (CONTRACT §9). */
export const OFFICE = 300;

/**
 * Every per-visitor budget held again per address group (IPv4 address, IPv6 /64), since logging in
 * without a cookie makes a new visitor (CONTRACT §9, docs/decisions/063): each is what a room of 300
 * colleagues does at once at an ordinary pace, so a script behind one address gets no more than that
 * room would send, while one colleague alone still has the whole per-visitor budget.
 */
export const PER_ADDRESS = {
  /** 2 each an hour (one visitor may send 30) */
  submissions: { limit: 2 * OFFICE, windowMs: HOUR },
  /** 2 each in ten minutes (one visitor: 30) */
  comments: { limit: 2 * OFFICE, windowMs: 10 * MINUTE },
  /** 2 each in ten minutes (one visitor: 30) */
  edits: { limit: 2 * OFFICE, windowMs: 10 * MINUTE },
  /** 4 each a minute (one visitor: 120) */
  likes: { limit: 4 * OFFICE, windowMs: MINUTE },
  /**
   * every colleague at the per-visitor 5 taps a second at the reveal (bench/show.ts has 300 tap 3 a
   * second): taps are counted in memory and sent coalesced, so a flood costs requests, not screens
   */
  reactions: { limit: 5 * OFFICE, windowMs: SECOND },
  /** 10 items opened each a minute (one visitor: 60) */
  views: { limit: 10 * OFFICE, windowMs: MINUTE },
  /** a stroke each a second (one visitor: 10) */
  muralStrokes: { limit: OFFICE, windowMs: SECOND },
  /**
   * mural points in any 10 s: a scribble of about 330 points each (one visitor: 5,000); a script
   * behind one address fills the 500,000-point mural in 50 s at the least, not in one (decision 115)
   */
  muralPoints: { limit: 100_000, windowMs: 10 * SECOND },
  /** upload requests, one each a day (one visitor: 20 files, api/media/uploadQuota.ts) */
  uploads: { limit: OFFICE, windowMs: DAY },
  /** bytes uploaded, in MiB: 64 MiB each a day, 18.75 GiB (one visitor: 2 GiB) */
  uploadMiB: { limit: 64 * OFFICE, windowMs: DAY },
} as const;

export const addressKey = (req: Request) => addressGroup(req.ip ?? 'unknown');

interface LimitSpec {
  name: string;
  limit: number | ((req: Request) => number);
  windowMs: number;
  key: (req: Request) => string;
  skip?: (req: Request) => boolean;
  /** count only what was done: refused input (4xx) costs nothing */
  countSuccessesOnly?: boolean;
  event: SecurityEventName;
  message: string;
}

/** Builds express-rate-limit middlewares that share one PostgreSQL table across processes. */
export function limiterFactory(db: Pick<pg.Pool, 'query'>, deps: Pick<Deps, 'personal' | 'clock'>) {
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
        void securityEvent(req, deps, spec.event, { limit: spec.name });
        res.status(429).json({ success: false, message: spec.message });
      },
    };
    if (spec.countSuccessesOnly) options.skipFailedRequests = true;
    return rateLimit(options);
  };
}

const TRY_LATER = 'Too many attempts. Please wait a minute and try again.';
const SLOW_DOWN = 'Too many requests. Please wait a little and try again.';

interface FailureBucket {
  name: string;
  limit: number;
  windowMs: number;
  key: (req: Request) => string;
  applies: (req: Request) => boolean;
  store: PostgresStore;
}

/** A secret's limits: `guard` refuses while a bucket is full; `failed` counts one wrong answer. */
export interface SecretLimits {
  guard: RequestHandler;
  failed(req: Request): Promise<void>;
}

/**
 * Guessing a shared secret (a password, the riddle, the admin key), counted in failures only: a
 * request is refused while a bucket that applies to it is full, and the route counts a wrong answer
 * in each before it answers. (express-rate-limit counts every request and gives successes back
 * afterwards, so a burst of right passwords, a room logging in at once, would fill the buckets for a
 * moment; here it never does.) Every bucket that refuses counts only what the guesser controls: its
 * address group, or its browser when the server knows it (a visitor cookie it issued), so an attacker
 * behind the office address does not lock the right password out for colleagues, and one guessing
 * from many addresses locks out only those addresses (docs/decisions/060). Against guessing spread
 * wide the defence is the secret's strength (api/secretStrength.ts); the count over everyone only
 * raises the alarm.
 */
export function secretLimits(
  db: Pick<pg.Pool, 'query'>,
  deps: Pick<Deps, 'personal' | 'clock'>,
  secret: 'password' | 'riddle' | 'admin_key',
  trusted: (req: Request) => boolean,
): SecretLimits {
  const bucket = (spec: Omit<FailureBucket, 'store'>): FailureBucket => {
    const store = new PostgresStore(db, `${spec.name}:`);
    store.init({ windowMs: spec.windowMs } as Options);
    return { ...spec, store };
  };
  const stranger = (req: Request) => !trusted(req);
  const buckets = [
    bucket({ name: `${secret}:addr`, ...LIMITS.secretPerAddress, key: addressKey, applies: stranger }),
    bucket({ name: `${secret}:addr-hour`, ...LIMITS.secretPerAddressHourly, key: addressKey, applies: stranger }),
    bucket({
      name: `${secret}:visitor`,
      ...LIMITS.secretPerVisitor,
      key: (req) => req.visitor ?? req.session?.visitorId ?? 'none',
      applies: trusted,
    }),
    bucket({ name: `${secret}:known-addr`, ...LIMITS.secretKnownPerAddress, key: addressKey, applies: trusted }),
  ];
  const everyone = bucket({ name: `${secret}:all`, ...LIMITS.secretOverall, key: () => 'all', applies: () => true });
  const event = secret === 'admin_key' ? 'admin_key.limited' : 'login.limited';
  /**
   * The buckets this process has seen full, until their window ends: a full fixed window only ends, so
   * a guesser that keeps knocking is refused without a query, and the security log has one line per
   * bucket and window, not one per knock (bench/abuse.ts: 20 addresses guessing without pause).
   */
  // `full` and Retry-After measure how long a rate-limit window has left: elapsed time, not domain time (decision 147)
  const full = new Map<string, number>();
  const refuse = (res: Response, until: number) => {
    res.set('Retry-After', String(Math.max(1, Math.ceil((until - Date.now()) / 1000))));
    res.status(429).json({ success: false, message: TRY_LATER });
  };

  return {
    async guard(req: Request, res: Response, next: NextFunction) {
      const applying = buckets.filter((b) => b.applies(req));
      for (const b of applying) {
        const until = full.get(`${b.name}:${b.key(req)}`);
        if (until !== undefined && until > Date.now()) return refuse(res, until);
      }
      for (const b of applying) {
        const current = await b.store.get(b.key(req));
        if (current && current.totalHits >= b.limit) {
          const until = current.resetTime!.getTime();
          if (full.size >= 10_000) for (const [k, end] of full) if (end <= Date.now()) full.delete(k);
          if (full.size < 10_000) full.set(`${b.name}:${b.key(req)}`, until);
          await securityEvent(req, deps, event, { limit: b.name });
          return refuse(res, until);
        }
      }
      next();
    },
    async failed(req: Request) {
      const counted = buckets.filter((b) => b.applies(req)).map((b) => b.store.increment(b.key(req)));
      const overall = await everyone.store.increment('all');
      await Promise.all(counted);
      // once a window, when the failures from everywhere reach the figure one guesser may not pass
      if (overall.totalHits === everyone.limit) {
        await securityEvent(req, deps, 'guessing.widespread', { limit: everyone.name, secret });
      }
    },
  };
}

type WriteName = 'submissions' | 'comments' | 'edits' | 'likes' | 'reactions' | 'views' | 'muralStrokes';

/**
 * Writes by one visitor (a session's visitor id; the browser's, across logins), then by its address
 * group (PER_ADDRESS): the two middlewares, in that order. Refused input (4xx) costs neither.
 */
export function writeLimit(
  make: ReturnType<typeof limiterFactory>,
  name: WriteName,
  message = SLOW_DOWN,
): RequestHandler[] {
  const common = { countSuccessesOnly: true, event: 'request.limited', message } as const;
  return [
    make({ name, ...LIMITS[name], key: (req) => req.session?.visitorId ?? addressKey(req), ...common }),
    make({ name: `${name}:addr`, ...PER_ADDRESS[name], key: addressKey, ...common }),
  ];
}

/** Upload requests from one address (IPv6 /64) a day; the per-visitor allowance is in api/media/uploadQuota.ts. */
export function uploadsPerAddress(make: ReturnType<typeof limiterFactory>): RequestHandler {
  return make({
    name: 'uploads:addr',
    ...PER_ADDRESS.uploads,
    key: addressKey,
    event: 'request.limited',
    message: SLOW_DOWN,
  });
}

/**
 * The bytes one address group may still upload today (PER_ADDRESS.uploadMiB), counted in whole MiB in
 * the same shared table: `room` before an upload is read (429 when nothing is left), `spent` once its
 * file is kept. Uploads in flight together can pass the budget by what they hold.
 */
export function uploadBytesPerAddress(db: Pick<pg.Pool, 'query'>) {
  const store = new PostgresStore(db, 'upload-mib:addr:');
  store.init({ windowMs: PER_ADDRESS.uploadMiB.windowMs } as Options);
  return {
    async room(req: Request): Promise<{ bytes: number; retryAfter: number }> {
      const used = await store.get(addressKey(req));
      const left = PER_ADDRESS.uploadMiB.limit - (used?.totalHits ?? 0);
      // how long the window has left: elapsed time, not domain time (decision 147)
      const retryAfter = used ? Math.max(1, Math.ceil((used.resetTime.getTime() - Date.now()) / 1000)) : 0;
      return { bytes: Math.max(0, left) * MiB, retryAfter };
    },
    async spent(req: Request, bytes: number) {
      await store.add(addressKey(req), Math.ceil(bytes / MiB));
    },
  };
}

/**
 * Adds a stroke's points to what its address group drew in the last 10 s (PER_ADDRESS.muralPoints),
 * in the shared table, and answers the total with them. Called inside the stroke's transaction, so a
 * stroke refused for it (or for anything else) gives its points back.
 */
export function addMuralPointsPerAddress(tx: Pick<pg.PoolClient, 'query'>, group: string, points: number) {
  const store = new PostgresStore(tx, 'mural-points:addr:');
  store.init({ windowMs: PER_ADDRESS.muralPoints.windowMs } as Options);
  return store.add(group, points);
}
