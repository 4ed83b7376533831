import fs from 'node:fs';
import readline from 'node:readline';
import { SCHEME, isKeyed, jcs, legacyHash, linkForm, logHmacKey } from './canonical.ts';
import { editedValue } from './commitments.ts';
import { GENESIS_HASH } from './chain.ts';
import { endLine, exportLine, type ChainEvent, type ExportEnd } from './export.ts';

export type FileVerifyResult =
  | { ok: true; checked: number; first: number | null; head: { seq: number; hash: string } | null }
  | { ok: false; checked: number; firstBadSeq: number; line: number; reason: string };

/**
 * Scheme 1 links were computed over PostgreSQL's text: position, stream, version, type, schema
 * version, data, metadata and time joined by newlines. jsonb text never holds a raw newline, so the
 * two JSON parts can be cut out and compared with the line's own fields.
 */
function legacyMatches(e: ChainEvent, text: string): boolean {
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
 * Verifies an export (`events export`) with no database: every line exactly as exported, seqs dense,
 * each prevHash the hash before it, each hash recomputed from the canonical form, and the end line
 * naming the count and the last link (a file cut at a line boundary has none). An export that starts
 * after seq 1 (`--from`) is checked from its first line on.
 */
export async function verifyExportFile(file: string, hmacKey = logHmacKey()): Promise<FileVerifyResult> {
  const lines = readline.createInterface({ input: fs.createReadStream(file, 'utf8'), crlfDelay: Infinity });
  let expectedSeq: number | null = null;
  let prevHash = GENESIS_HASH;
  let lastScheme = 0;
  let committed = false;
  let checked = 0;
  let lineNo = 0;
  let first: number | null = null;
  const fail = (seq: number, reason: string): FileVerifyResult => ({
    ok: false,
    checked,
    firstBadSeq: seq,
    line: lineNo,
    reason,
  });
  let ended = false;
  for await (const text of lines) {
    lineNo++;
    const here = expectedSeq ?? 1;
    if (ended) return fail(here, 'a line after the end line');
    if (text === '') return fail(here, 'empty line');
    let e: ChainEvent;
    try {
      e = JSON.parse(text) as ChainEvent;
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
      expectedSeq = e.seq;
      first = e.seq;
      if (e.seq !== 1) prevHash = e.prevHash;
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
    if (e.actor?.role !== (e.metadata as { role?: unknown })?.role) return fail(e.seq, 'actor does not match metadata');
    if (e.scheme === SCHEME.legacy) {
      if (typeof e.legacy !== 'string' || !legacyMatches(e, e.legacy)) return fail(e.seq, 'event edited');
      if (legacyHash(prevHash, e.legacy) !== e.hash) return fail(e.seq, 'event edited');
    } else if (e.scheme === SCHEME.sha256 || e.scheme === SCHEME.hmac) {
      if (isKeyed(e.scheme) && !hmacKey) return fail(e.seq, 'keyed link: set LOG_HMAC_KEY to verify it');
      const commitments = e.commitments;
      if (commitments !== undefined && (typeof commitments !== 'object' || commitments === null)) {
        return fail(e.seq, 'event edited');
      }
      let form: 'committed' | 'plain' | null = null;
      try {
        form = linkForm(e, commitments, e.hash, isKeyed(e.scheme) ? hmacKey : undefined, committed);
      } catch {
        form = null;
      }
      if (!form) return fail(e.seq, 'event edited');
      if (form === 'committed') {
        committed = true;
        // each value the line gives must be the one the chain committed to (null: erased)
        const actorRef = (e.metadata as { actorRef?: unknown })?.actorRef;
        const values = { ...e.personal, ...(actorRef === undefined ? {} : { actorRef: e.actor?.name ?? null }) };
        const edited = editedValue(values, e.salts ?? {}, commitments!);
        if (edited) return fail(e.seq, `personal value edited (${edited})`);
      }
    } else {
      return fail(e.seq, `unknown scheme ${String(e.scheme)}`);
    }
    prevHash = e.hash;
    lastScheme = e.scheme;
    expectedSeq++;
    checked++;
  }
  if (!ended) {
    return fail(
      expectedSeq ?? 1,
      'the export has no end line: it was cut short (or made before exports ended with one)',
    );
  }
  return { ok: true, checked, first, head: expectedSeq === null ? null : { seq: expectedSeq - 1, hash: prevHash } };
}
