import { commitment } from './canonical.ts';
import { REF_KEYS } from './personal.ts';

/**
 * The references to personal data whose values a chain link covers (decision 077): an event's names,
 * words and email in its data, the address and the actor's name in its metadata.
 */
export const COMMITTED_REFS = { data: [...REF_KEYS, 'emailRef'], metadata: ['clientRef', 'actorRef'] } as const;

const list = (keys: readonly string[]) => keys.map((k) => `'${k}'`).join(', ');

/** One referenced personal_data row: its commitment, salt and value (salt and value null once erased). */
export interface RefRow {
  c: string | null;
  s: string | null;
  v: string | null;
}
export type RefRows = Record<string, RefRow>;

/**
 * For `events e`: every committed reference the event holds with its row, as `{ titleRef: { c, s, v } }`
 * (null when it holds none); a row that is gone reads as all nulls.
 */
export const REF_ROWS_SQL = `(SELECT jsonb_object_agg(r.key, jsonb_build_object('c', p.commitment, 's', p.salt, 'v', p.value))
    FROM (SELECT key, value FROM jsonb_each_text(e.data) WHERE key IN (${list(COMMITTED_REFS.data)})
          UNION ALL
          SELECT key, value FROM jsonb_each_text(e.metadata) WHERE key IN (${list(COMMITTED_REFS.metadata)})) r
    LEFT JOIN personal_data p ON p.id = CASE WHEN r.value ~ '^\\d{1,18}$' THEN r.value::bigint END
    WHERE r.value ~ '^\\d{1,18}$')`;

/** The commitments a link covers, by ref key. */
export function commitmentsOf(refs: RefRows | null): Record<string, string | null> {
  return Object.fromEntries(Object.entries(refs ?? {}).map(([key, row]) => [key, row.c]));
}

/** The first ref whose value no longer matches its commitment (edited in place), if any. */
export function editedValue(
  values: Record<string, string | null>,
  salts: Record<string, string | null | undefined>,
  commitments: Record<string, string | null>,
): string | undefined {
  for (const [key, value] of Object.entries(values)) {
    if (value === null) continue;
    const salt = salts[key];
    const committed = commitments[key];
    if (!salt || !committed || commitment(salt, value) !== committed) return key;
  }
  return undefined;
}

/** editedValue over the rows a database holds. */
export function editedRow(refs: RefRows | null): string | undefined {
  const rows = Object.entries(refs ?? {});
  return editedValue(
    Object.fromEntries(rows.map(([k, r]) => [k, r.v])),
    Object.fromEntries(rows.map(([k, r]) => [k, r.s])),
    Object.fromEntries(rows.map(([k, r]) => [k, r.c])),
  );
}
