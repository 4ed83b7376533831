import { jcs } from './jcs.ts';
import { canonicalRecord, endLine, exportLine, legacyText, type ExportEnd, type LogLine } from './logLine.ts';

/**
 * The one check of an exported log's hash chain (docs/canonical-form.md), line by line: every line
 * exactly as exported, seqs dense, each prevHash the hash before it, each hash recomputed from the
 * canonical form, each value given the one the chain committed to, and the end line naming the count
 * and the last link. `npm run events -- verify --file` runs it in Node, the keepsake's verify.html in
 * a browser: plain TypeScript with no Node module, the hashing handed in (decision 126).
 */

/** How a checker hashes: SHA-256 (links of schemes 1 and 2, commitments) and, given the key, HMAC-SHA256. */
export interface ChainHashes {
  sha256(text: string): string | Promise<string>;
  /** scheme 3 links, under LOG_HMAC_KEY; absent when the checker has no key */
  hmac?: (text: string) => string | Promise<string>;
}

export type ChainCheck =
  | { ok: true; checked: number; first: number | null; head: { seq: number; hash: string } | null }
  | {
      ok: false;
      checked: number;
      firstBadSeq: number;
      /** the line of the file, from 1 */
      line: number;
      reason: string;
      /** the first link the checker could not check: it was sealed under a key the checker was not given */
      needsKey?: true;
    };

export interface ChainCheckOptions {
  hashes: ChainHashes;
  /** an export taken `--from` a later seq is checked from its first line on; otherwise seq 1 must come first */
  fromAnySeq?: boolean;
  /** called every 500 events */
  progress?: (checked: number) => void;
}

export const GENESIS_HASH = '0'.repeat(64);
export const KEYED_SCHEME = 3;

/**
 * Scheme 1 links were computed over PostgreSQL's text: position, stream, version, type, schema
 * version, data, metadata and time joined by newlines. jsonb text never holds a raw newline, so the
 * two JSON parts can be cut out and compared with the line's own fields.
 */
function legacyMatches(e: LogLine, text: string): boolean {
  const head = [String(e.position), e.streamId, String(e.version), e.type, String(e.schemaVersion)].join('\n') + '\n';
  const tail = `\n${e.recordedAt}`;
  if (!text.startsWith(head) || !text.endsWith(tail)) return false;
  const middle = text.slice(head.length, text.length - tail.length).split('\n');
  if (middle.length !== 2) return false;
  try {
    return jcs(JSON.parse(middle[0]!)) === jcs(e.data) && jcs(JSON.parse(middle[1]!)) === jcs(e.metadata);
  } catch {
    return false;
  }
}

/**
 * Which record a scheme 2 or 3 link was computed over (decision 077): `committed`, with the
 * commitments of the personal values its event refers to, or `plain`, without (links sealed before);
 * null when neither gives the hash. After a committed link only a committed one may follow.
 */
async function linkFormOf(
  e: LogLine,
  link: (text: string) => string | Promise<string>,
  committedBefore: boolean,
): Promise<'committed' | 'plain' | null> {
  const { commitments, ...plain } = e;
  if (commitments && (await link(canonicalRecord({ ...plain, commitments }))) === e.hash) return 'committed';
  if (committedBefore) return null;
  return (await link(canonicalRecord(plain))) === e.hash ? 'plain' : null;
}

/** The first value the line gives that is not the one its commitment holds (null values are erased). */
async function editedValue(e: LogLine, sha256: ChainHashes['sha256']): Promise<string | undefined> {
  const actorRef = (e.metadata as { actorRef?: unknown } | null)?.actorRef;
  const values: Record<string, string | null> = {
    ...e.personal,
    ...(actorRef === undefined ? {} : { actorRef: e.actor?.name ?? null }),
  };
  for (const [key, value] of Object.entries(values)) {
    if (value === null) continue;
    const salt = e.salts?.[key];
    const committed = e.commitments?.[key];
    if (!salt || !committed || (await sha256(salt + value)) !== committed) return key;
  }
  return undefined;
}

/** Checks the lines of an export, in order (see the top of this file). */
export async function checkChain(
  lines: Iterable<string> | AsyncIterable<string>,
  { hashes, fromAnySeq = false, progress }: ChainCheckOptions,
): Promise<ChainCheck> {
  let expectedSeq: number | null = null;
  let prevHash = GENESIS_HASH;
  let lastScheme = 0;
  let committed = false;
  let checked = 0;
  let lineNo = 0;
  let first: number | null = null;
  let ended = false;
  const fail = (seq: number, reason: string, needsKey?: true): ChainCheck => ({
    ok: false,
    checked,
    firstBadSeq: seq,
    line: lineNo,
    reason,
    ...(needsKey ? { needsKey } : {}),
  });
  for await (const text of lines) {
    lineNo++;
    const here = expectedSeq ?? 1;
    if (ended) return fail(here, 'a line after the end line');
    if (text === '') return fail(here, 'empty line');
    let e: LogLine;
    try {
      e = JSON.parse(text) as LogLine;
    } catch {
      return fail(here, 'line is not JSON');
    }
    if (typeof e === 'object' && e !== null && 'end' in e) {
      const end = (e as unknown as ExportEnd).end;
      const head = expectedSeq === null ? null : { seq: expectedSeq - 1, hash: prevHash };
      if (text !== endLine(checked, head) || end?.events !== checked) {
        return fail(
          here,
          `the end line does not match: the export holds ${checked} events, ending at ${head ? `seq ${head.seq}` : 'none'}`,
        );
      }
      ended = true;
      continue;
    }
    if (typeof e !== 'object' || e === null || typeof e.seq !== 'number') return fail(here, 'line is not an event');
    if (expectedSeq === null) {
      // the first line: the chain from its start, or an export taken --from a later seq
      expectedSeq = fromAnySeq ? e.seq : 1;
      first = expectedSeq;
      if (expectedSeq !== 1) prevHash = e.prevHash;
    }
    if (e.seq !== expectedSeq) {
      return fail(expectedSeq, e.seq > expectedSeq ? `seq ${expectedSeq} is missing` : `seq ${e.seq} out of order`);
    }
    let same = false;
    try {
      same = exportLine(e) === text;
    } catch {
      same = false;
    }
    if (!same) return fail(e.seq, 'line altered (not as exported)');
    if (e.prevHash !== prevHash) return fail(e.seq, 'chain link broken');
    if (e.scheme < lastScheme) return fail(e.seq, 'link sealed with an older scheme');
    if (e.actor?.role !== (e.metadata as { role?: unknown } | null)?.role) {
      return fail(e.seq, 'actor does not match metadata');
    }
    if (e.scheme === 1) {
      if (typeof e.legacy !== 'string' || !legacyMatches(e, e.legacy)) return fail(e.seq, 'event edited');
      if ((await hashes.sha256(legacyText(prevHash, e.legacy))) !== e.hash) return fail(e.seq, 'event edited');
    } else if (e.scheme === 2 || e.scheme === KEYED_SCHEME) {
      const keyed = e.scheme === KEYED_SCHEME;
      if (keyed && !hashes.hmac) return fail(e.seq, 'keyed link: LOG_HMAC_KEY is needed to check it', true);
      if (e.commitments !== undefined && (typeof e.commitments !== 'object' || e.commitments === null)) {
        return fail(e.seq, 'event edited');
      }
      let form: 'committed' | 'plain' | null = null;
      try {
        form = await linkFormOf(e, keyed ? hashes.hmac! : hashes.sha256, committed);
      } catch {
        form = null;
      }
      if (!form) return fail(e.seq, keyed ? 'event edited, or not this key' : 'event edited');
      if (form === 'committed') {
        committed = true;
        const edited = await editedValue(e, hashes.sha256);
        if (edited) return fail(e.seq, `personal value edited (${edited})`);
      }
    } else {
      return fail(e.seq, `unknown scheme ${String(e.scheme)}`);
    }
    prevHash = e.hash;
    lastScheme = e.scheme;
    expectedSeq++;
    checked++;
    if (checked % 500 === 0) progress?.(checked);
  }
  if (!ended) {
    return fail(
      expectedSeq ?? 1,
      'the export has no end line: it was cut short (or made before exports ended with one)',
    );
  }
  return { ok: true, checked, first, head: expectedSeq === null ? null : { seq: expectedSeq - 1, hash: prevHash } };
}
