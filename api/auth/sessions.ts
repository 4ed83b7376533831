import { createHash, hash, randomBytes, randomUUID, scryptSync, timingSafeEqual } from 'node:crypto';
import type pg from 'pg';
import { PgListener } from '#db/listener.ts';
import { log } from '../observability/logger.ts';

export type SessionRole = 'guest' | 'admin' | 'auditor';

export interface Session {
  role: SessionRole;
  visitorId: string;
  tokenHash: string;
}

/** Timeouts by role (docs/decisions/023): guests browse for days, admins hold the keys for hours. */
export const SESSION_TIMEOUTS: Record<SessionRole, { idleSeconds: number; absoluteSeconds: number }> = {
  guest: { idleSeconds: 3 * 24 * 3600, absoluteSeconds: 14 * 24 * 3600 },
  admin: { idleSeconds: 2 * 3600, absoluteSeconds: 12 * 3600 },
  auditor: { idleSeconds: 2 * 3600, absoluteSeconds: 12 * 3600 },
};
/** last_seen_at is written at most this often per session */
const TOUCH_SECONDS = 60;
/**
 * how long a process answers a session from memory; a logout reaches every process at once: a process
 * serves a remembered session only once its listener has caught up with every ending committed before
 * the request (docs/decisions/023)
 */
export const SESSION_CACHE_MS = 5_000;
const CACHE_ENTRIES = 10_000;
const ENDED_CHANNEL = 'tribute_session_ended';
const ECHO_WAIT_MS = 250;

// one-shot: every request hashes its token, and a Hash object costs more than the digest itself
const hashToken = (token: string) => hash('sha256', token, 'hex');

/** Compares secrets in constant time, whatever their lengths. */
export function secretsEqual(given: string, expected: string): boolean {
  const a = createHash('sha256').update(given).digest();
  const b = createHash('sha256').update(expected).digest();
  return timingSafeEqual(a, b);
}

/**
 * A tag of the secret a session was opened with: a new password for the role gives a new tag, and the
 * sessions opened with the old one stop working. Slow to compute (scrypt), once per process and secret.
 */
const tags = new Map<string, string>();
export function secretTag(role: SessionRole, secret: string): string {
  const id = `${role}\u0000${secret}`;
  let tag = tags.get(id);
  if (!tag) {
    tag = scryptSync(secret, `tribute-session:${role}`, 16).toString('hex');
    tags.set(id, tag);
  }
  return tag;
}

/**
 * Sessions live in PostgreSQL, so every API process accepts every token. Only hashes are stored.
 * Lookups are kept in memory for SESSION_CACHE_MS once `startCache` listens: ending a session sends
 * its hash on a channel every process listens to, and each drops it from its memory at once.
 */
export class SessionStore {
  readonly #db: pg.Pool;
  #secrets: Partial<Record<SessionRole, string>> = {};
  readonly #cache = new Map<string, { session: Session; until: number }>();
  /** lookups on their way, and the endings heard when each began: requests for one token share one */
  readonly #loading = new Map<string, { heard: number; session: Promise<Session | undefined> }>();
  #listener?: PgListener;
  #listening = false;
  readonly #echoes = new Map<string, () => void>();
  /** endings heard: a session read from the database while one arrives is not remembered */
  #heard = 0;
  /** the listener's check for endings on their way: one asked for and not yet sent, shared by whoever asks */
  #nextCheck?: Promise<boolean>;
  #check?: Promise<boolean>;

  constructor(db: pg.Pool) {
    this.#db = db;
  }

  async startCache() {
    const sessionLog = log.child({ component: 'sessions' });
    this.#listener = new PgListener({
      config: this.#db.options,
      channels: [ENDED_CHANNEL],
      onNotify: (_channel, tokenHash) => {
        if (!tokenHash) return;
        this.#heard++;
        this.#cache.delete(tokenHash);
        this.#echoes.get(tokenHash)?.();
      },
      // endings sent while the connection was down are lost: forget everything
      onListening: () => {
        this.#heard++;
        this.#cache.clear();
        this.#listening = true;
      },
      log: (message, error) => sessionLog.warn({ reason: (error as Error | undefined)?.message }, message),
    });
    await this.#listener.start();
  }

  async close() {
    this.#listening = false;
    this.#cache.clear();
    await this.#listener?.stop();
  }

  /** The secret each role logs in with now; a session opened with another one is refused. */
  bindToSecrets(secrets: Partial<Record<SessionRole, string>>) {
    this.#secrets = secrets;
  }

  #tagFor(role: SessionRole): string {
    const secret = this.#secrets[role];
    return secret ? secretTag(role, secret) : '';
  }

  async create(role: SessionRole, visitorId: string = randomUUID()): Promise<{ token: string; session: Session }> {
    const token = randomBytes(32).toString('base64url');
    const tokenHash = hashToken(token);
    await this.purgeExpired();
    await this.#db.query(
      `INSERT INTO sessions (token_hash, role, visitor_id, expires_at, secret_tag)
       VALUES ($1, $2, $3, now() + make_interval(secs => $4), $5)`,
      [tokenHash, role, visitorId, SESSION_TIMEOUTS[role].absoluteSeconds, this.#tagFor(role)],
    );
    return { token, session: { role, visitorId, tokenHash } };
  }

  async find(token: string | undefined): Promise<Session | undefined> {
    if (!token || token.length > 200) return undefined;
    const tokenHash = hashToken(token);
    const cached = this.#cache.get(tokenHash);
    // the cache's expiry: elapsed time, not domain time (decision 147)
    if (cached && cached.until > Date.now() && this.#listening) {
      // a logout answered before this request may have ended it, its message still on the way here
      if (await this.#caughtUp()) {
        const still = this.#cache.get(tokenHash);
        if (still) return still.session;
      }
    }
    // a page's requests arrive together (decision 149): they share the lookup already on its way, as
    // they would its answer in memory, unless an ending was heard since it began
    const loading = this.#loading.get(tokenHash);
    if (loading && this.#listening && (await this.#caughtUp()) && this.#heard === loading.heard) {
      return loading.session;
    }
    const heard = this.#heard;
    const lookup = this.#load(tokenHash);
    this.#loading.set(tokenHash, { heard, session: lookup });
    try {
      const session = await lookup;
      if (session && this.#listening && this.#heard === heard) {
        if (this.#cache.size >= CACHE_ENTRIES) this.#cache.clear();
        this.#cache.set(tokenHash, { session, until: Date.now() + SESSION_CACHE_MS });
      }
      return session;
    } finally {
      if (this.#loading.get(tokenHash)?.session === lookup) this.#loading.delete(tokenHash);
    }
  }

  /**
   * Whether every ending committed before this call has reached this process's memory. Requests that
   * ask together share one check; a check already on its way may have left before their logout was
   * answered, so they wait for the next one.
   */
  #caughtUp(): Promise<boolean> {
    if (this.#nextCheck) return this.#nextCheck;
    const next = (this.#check ?? Promise.resolve(true)).then(() => {
      this.#nextCheck = undefined;
      const check = this.#listener?.caughtUp() ?? Promise.resolve(false);
      this.#check = check;
      void check.finally(() => {
        if (this.#check === check) this.#check = undefined;
      });
      return check;
    });
    this.#nextCheck = next;
    return next;
  }

  async #load(tokenHash: string): Promise<Session | undefined> {
    const { rows } = await this.#db.query<{ role: SessionRole; visitor_id: string; secret_tag: string; idle: number }>(
      `SELECT role, visitor_id, secret_tag, extract(epoch FROM now() - last_seen_at)::float8 AS idle
       FROM sessions WHERE token_hash = $1 AND expires_at > now()`,
      [tokenHash],
    );
    const row = rows[0];
    if (!row) return undefined;
    const session = { role: row.role, visitorId: row.visitor_id, tokenHash };
    if (row.idle > SESSION_TIMEOUTS[row.role].idleSeconds || row.secret_tag !== this.#tagFor(row.role)) {
      await this.end(session);
      return undefined;
    }
    if (row.idle > TOUCH_SECONDS) {
      await this.#db.query(`UPDATE sessions SET last_seen_at = now() WHERE token_hash = $1`, [tokenHash]);
    }
    return session;
  }

  /**
   * Ends a session in every process: the row goes, and each process drops it from memory. Waits (a
   * little) for its own copy of the message, so that when the logout answers, PostgreSQL has handed
   * the message to every listening process.
   */
  async end(session: Session) {
    const { tokenHash } = session;
    this.#cache.delete(tokenHash);
    const echoed = this.#listening
      ? new Promise<void>((resolve) => {
          const timer = setTimeout(resolve, ECHO_WAIT_MS);
          this.#echoes.set(tokenHash, () => {
            clearTimeout(timer);
            resolve();
          });
        })
      : Promise.resolve();
    try {
      await this.#db.query(
        `WITH ended AS (DELETE FROM sessions WHERE token_hash = $1)
         SELECT pg_notify($2, $1)`,
        [tokenHash, ENDED_CHANNEL],
      );
      await echoed;
    } finally {
      this.#echoes.delete(tokenHash);
    }
  }

  /** Deletes sessions past their absolute or idle timeout. */
  async purgeExpired() {
    await this.#db.query(
      `DELETE FROM sessions WHERE expires_at <= now()
         OR last_seen_at < now() - make_interval(secs => CASE role WHEN 'guest' THEN $1::int ELSE $2::int END)`,
      [SESSION_TIMEOUTS.guest.idleSeconds, SESSION_TIMEOUTS.admin.idleSeconds],
    );
  }
}
