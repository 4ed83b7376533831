import { createHash, randomBytes, randomUUID, timingSafeEqual } from 'node:crypto';
import type pg from 'pg';

export type SessionRole = 'guest' | 'admin' | 'auditor';

export interface Session {
  role: SessionRole;
  visitorId: string;
  tokenHash: string;
}

const TTL_DAYS = 14;
const hashToken = (token: string) => createHash('sha256').update(token).digest('hex');

/** Compares secrets in constant time, whatever their lengths. */
export function secretsEqual(given: string, expected: string): boolean {
  const a = createHash('sha256').update(given).digest();
  const b = createHash('sha256').update(expected).digest();
  return timingSafeEqual(a, b);
}

/** Sessions live in PostgreSQL, so every API process accepts every token. Only hashes are stored. */
export class SessionStore {
  readonly #db: Pick<pg.Pool, 'query'>;

  constructor(db: Pick<pg.Pool, 'query'>) {
    this.#db = db;
  }

  async create(role: SessionRole, visitorId: string = randomUUID()): Promise<{ token: string; session: Session }> {
    const token = randomBytes(32).toString('base64url');
    const tokenHash = hashToken(token);
    await this.#db.query(
      `INSERT INTO sessions (token_hash, role, visitor_id, expires_at)
       VALUES ($1, $2, $3, now() + make_interval(days => $4))`,
      [tokenHash, role, visitorId, TTL_DAYS],
    );
    return { token, session: { role, visitorId, tokenHash } };
  }

  async find(token: string | undefined): Promise<Session | undefined> {
    if (!token || token.length > 200) return undefined;
    const tokenHash = hashToken(token);
    const { rows } = await this.#db.query<{ role: SessionRole; visitor_id: string }>(
      `SELECT role, visitor_id FROM sessions WHERE token_hash = $1 AND expires_at > now()`,
      [tokenHash],
    );
    const row = rows[0];
    return row && { role: row.role, visitorId: row.visitor_id, tokenHash };
  }

  async end(session: Session) {
    await this.#db.query(`DELETE FROM sessions WHERE token_hash = $1`, [session.tokenHash]);
  }
}
