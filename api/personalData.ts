import type pg from 'pg';
import { kindOf, type PersonalField } from '#events/personal.ts';
import { addressGroup, canonicalAddress } from './limits/address.ts';

type Queryable = Pick<pg.Pool, 'query'>;

/** Whose values a write records and for which stream; anonymous work has no subject (decision 050). */
export interface Owner {
  stream: string;
  subjectId: number | null;
}

type Refs<F extends PersonalField> = { [K in F as `${K}Ref`]: number | null };

/**
 * Emails and client addresses are kept here, never in the log: events hold the row's id, and erasing
 * a person blanks the value without touching the hash chain.
 */
export class PersonalData {
  readonly #db: Queryable;
  readonly #addressRefs = new Map<string, number>();
  readonly #nameRefs = new Map<string, number | null>();

  constructor(db: Queryable) {
    this.#db = db;
  }

  async recordEmail(email: string, db: Queryable = this.#db, owner?: Owner): Promise<number> {
    const { rows } = await db.query<{ id: number }>(
      `INSERT INTO personal_data (kind, value, subject_id, stream_id) VALUES ('email', $1, $2, $3) RETURNING id`,
      [email, owner?.subjectId ?? null, owner?.stream ?? null],
    );
    return rows[0]!.id;
  }

  /** The subject a browser's writes belong to: one per visitor id, made on first use. */
  async subjectFor(visitorId: string, db: Queryable = this.#db): Promise<number> {
    const { rows } = await db.query<{ id: number }>(
      `WITH found AS (SELECT id FROM subjects WHERE visitor_id = $1),
       made AS (
         INSERT INTO subjects (visitor_id) SELECT $1 WHERE NOT EXISTS (SELECT 1 FROM found)
         ON CONFLICT (visitor_id) DO NOTHING RETURNING id)
       SELECT id FROM found UNION ALL SELECT id FROM made`,
      [visitorId],
    );
    // a concurrent first write of the same browser made it in between
    return rows[0]?.id ?? this.subjectFor(visitorId, db);
  }

  /**
   * Which browser sent an item (CONTRACT §11, decision 087), anonymous or not: its sender alone may
   * see, edit and withdraw it from "Your contributions". Outside the log, erased with the browser.
   */
  async recordSender(stream: string, visitorId: string, db: Queryable = this.#db): Promise<void> {
    await db.query(
      `INSERT INTO contributions (stream_id, kind, item_id, visitor_id)
       SELECT $1, m[1], m[2]::bigint, $2 FROM regexp_match($1, '^(artwork|story|media)-(\\d+)$') m`,
      [stream, visitorId],
    );
  }

  /**
   * A write's names and free text, one row each (decision 050): the event holds the refs, so erasing
   * the owner blanks the values and the log stays as it was. An empty value gets no row (ref null).
   */
  async recordTexts<F extends PersonalField>(
    texts: Record<F, string | null>,
    owner: Owner,
    db: Queryable = this.#db,
  ): Promise<Refs<F>> {
    const given = (Object.entries(texts) as Array<[F, string | null]>).filter(([, v]) => v !== null);
    const { rows } = await db.query<{ id: number; kind: string }>(
      `INSERT INTO personal_data (kind, value, subject_id, stream_id)
       SELECT k, v, $3, $4 FROM unnest($1::text[], $2::text[]) AS t(k, v) RETURNING id, kind`,
      [given.map(([f]) => kindOf(f)), given.map(([, v]) => v), owner.subjectId, owner.stream],
    );
    const byKind = new Map(rows.map((r) => [r.kind, r.id]));
    return Object.fromEntries(
      (Object.keys(texts) as F[]).map((f) => [`${f}Ref`, byKind.get(kindOf(f)) ?? null]),
    ) as Refs<F>;
  }

  /**
   * A row of its own for the address of one write, for event metadata: two events never share an
   * address reference, so the log does not link a person's anonymous work to their named work.
   */
  async recordAddress(raw: string): Promise<number> {
    const { rows } = await this.#db.query<{ id: number }>(
      `INSERT INTO personal_data (kind, value) VALUES ('ip', $1) RETURNING id`,
      [canonicalAddress(raw)],
    );
    return rows[0]!.id;
  }

  /** One row per distinct address, reused while it is not erased (likes by address, security logs). */
  async refForAddress(raw: string): Promise<number> {
    // one spelling per address, so that erasing `127.0.0.1` finds what `::ffff:127.0.0.1` stored
    const address = canonicalAddress(raw);
    const cached = this.#addressRefs.get(address);
    if (cached) return cached;
    const { rows } = await this.#db.query<{ id: number }>(
      `WITH found AS (
         SELECT id FROM personal_data WHERE kind = 'ip' AND value = $1 AND erased_at IS NULL LIMIT 1
       ), made AS (
         INSERT INTO personal_data (kind, value) SELECT 'ip', $1 WHERE NOT EXISTS (SELECT 1 FROM found) RETURNING id
       )
       SELECT id FROM found UNION ALL SELECT id FROM made`,
      [address],
    );
    const id = rows[0]!.id;
    if (this.#addressRefs.size > 10_000) this.#addressRefs.clear();
    this.#addressRefs.set(address, id);
    return id;
  }

  /**
   * The name an admin or auditor gave at login (CONTRACT §6), tied to their session; events they
   * cause carry its id as `metadata.actorRef`.
   */
  async nameSession(tokenHash: string, name: string): Promise<number> {
    const { rows } = await this.#db.query<{ id: number }>(
      `WITH made AS (INSERT INTO personal_data (kind, value) VALUES ('name', $2) RETURNING id)
       UPDATE sessions SET name_ref = (SELECT id FROM made) WHERE token_hash = $1 RETURNING name_ref AS id`,
      [tokenHash, name],
    );
    return rows[0]!.id;
  }

  /** The name reference of a session, if a name was given at login (a session's never changes). */
  async nameRefForSession(tokenHash: string): Promise<number | undefined> {
    if (this.#nameRefs.has(tokenHash)) return this.#nameRefs.get(tokenHash) ?? undefined;
    const { rows } = await this.#db.query<{ name_ref: number | null }>(
      `SELECT name_ref FROM sessions WHERE token_hash = $1`,
      [tokenHash],
    );
    const ref = rows[0]?.name_ref ?? null;
    if (this.#nameRefs.size > 10_000) this.#nameRefs.clear();
    this.#nameRefs.set(tokenHash, ref);
    return ref ?? undefined;
  }

  /** Blanks every stored copy of an email, an address or a name; the events that point at them stay intact. */
  async erase(kind: 'email' | 'ip' | 'name', value: string): Promise<number> {
    // an address in any spelling; rows stored before addresses were canonical may be IPv4-mapped
    const spellings = kind === 'ip' ? [canonicalAddress(value), `::ffff:${canonicalAddress(value)}`] : [value];
    const { rowCount } = await this.#db.query(
      `UPDATE personal_data SET value = NULL, erased_at = now()
       WHERE kind = $1 AND lower(value) = ANY($2::text[]) AND erased_at IS NULL`,
      [kind, spellings.map((v) => v.toLowerCase())],
    );
    // the limiters' counters name the address (or its IPv6 /64) until their window ends
    if (kind === 'ip') await this.#db.query(`DELETE FROM rate_limits WHERE key LIKE '%:' || $1`, [addressGroup(value)]);
    this.#addressRefs.clear();
    return rowCount ?? 0;
  }
}
