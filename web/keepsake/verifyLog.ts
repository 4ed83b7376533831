import { canonicalRecord, endLine, exportLine, legacyText, type LogLine } from '../../contract/logLine.ts';

/**
 * The keepsake's check of its log in the browser (CONTRACT §10): the recipe of docs/canonical-form.md
 * with Web Crypto, line by line as `npm run events -- verify --file` does it.
 */
export type LogCheck =
  | { ok: true; checked: number; head: { seq: number; hash: string } | null }
  | { ok: false; checked: number; firstBadSeq: number; reason: string; needsKey?: true };

const GENESIS = '0'.repeat(64);
const hex = (buf: ArrayBuffer) => [...new Uint8Array(buf)].map((b) => b.toString(16).padStart(2, '0')).join('');
const utf8 = (text: string) => new TextEncoder().encode(text);
const sha256 = async (text: string) => hex(await crypto.subtle.digest('SHA-256', utf8(text)));

/** A scheme 3 link: HMAC-SHA256 under LOG_HMAC_KEY (its UTF-8 bytes, as the server takes it). */
async function hmacUnder(key: string): Promise<(text: string) => Promise<string>> {
  const secret = await crypto.subtle.importKey('raw', utf8(key), { name: 'HMAC', hash: 'SHA-256' }, false, ['sign']);
  return async (text) => hex(await crypto.subtle.sign('HMAC', secret, utf8(text)));
}

type Line = Record<string, any>;

const record = (e: Line, withCommitments: boolean) =>
  canonicalRecord({ ...(e as LogLine), commitments: withCommitments ? e.commitments : undefined });

/**
 * Checks every line of a log. Links sealed under LOG_HMAC_KEY (scheme 3) need the key, which is in
 * no file of the keepsake: without it the check stops at the first keyed link and says so (`needsKey`).
 */
export async function checkLog(
  lines: readonly string[],
  progress?: (n: number) => void,
  hmacKey?: string,
): Promise<LogCheck> {
  const keyed = hmacKey ? await hmacUnder(hmacKey) : undefined;
  let expected = 1;
  let prevHash = GENESIS;
  let committed = false;
  let checked = 0;
  let ended = false;
  const fail = (seq: number, reason: string): LogCheck => ({ ok: false, checked, firstBadSeq: seq, reason });
  for (const text of lines) {
    if (text === '' && ended) continue;
    if (ended) return fail(expected, 'a line after the end line');
    let e: Line;
    try {
      e = JSON.parse(text);
    } catch {
      return fail(expected, 'line is not JSON');
    }
    if (e && typeof e === 'object' && 'end' in e) {
      const head = checked ? { seq: expected - 1, hash: prevHash } : null;
      if (text !== endLine(checked, head)) {
        return fail(expected, `the end line does not match: the log holds ${checked} events`);
      }
      ended = true;
      continue;
    }
    if (e?.seq !== expected)
      return fail(
        expected,
        typeof e?.seq !== 'number' ? 'line is not an event' : `seq ${expected} is missing or out of order`,
      );
    if (exportLine(e as LogLine) !== text) return fail(e.seq, 'line altered (not as exported)');
    if (e.prevHash !== prevHash) return fail(e.seq, 'chain link broken');
    if (e.actor?.role !== e.metadata?.role) return fail(e.seq, 'actor does not match metadata');
    if (e.scheme === 1) {
      if (typeof e.legacy !== 'string' || (await sha256(legacyText(prevHash, e.legacy))) !== e.hash)
        return fail(e.seq, 'event edited');
    } else if (e.scheme === 2 || e.scheme === 3) {
      if (e.scheme === 3 && !keyed) {
        return {
          ...fail(e.seq, 'this link was sealed with the gallery’s secret key (LOG_HMAC_KEY): enter it to check'),
          needsKey: true,
        };
      }
      const link = e.scheme === 3 ? keyed! : sha256;
      let form: 'committed' | 'plain' | null = null;
      if (e.commitments && (await link(record(e, true))) === e.hash) form = 'committed';
      else if (!committed && (await link(record(e, false))) === e.hash) form = 'plain';
      if (!form) return fail(e.seq, e.scheme === 3 ? 'event edited, or not this key' : 'event edited');
      if (form === 'committed') {
        committed = true;
        const values: Record<string, string | null> = { ...e.personal };
        if (e.metadata?.actorRef !== undefined) values.actorRef = e.actor?.name ?? null;
        for (const [key, value] of Object.entries(values)) {
          if (value === null) continue;
          const salt = e.salts?.[key];
          if (!salt || (await sha256(salt + value)) !== e.commitments[key])
            return fail(e.seq, `personal value edited (${key})`);
        }
      }
    } else {
      return fail(e.seq, `unknown scheme ${String(e.scheme)}`);
    }
    prevHash = e.hash;
    expected++;
    checked++;
    if (checked % 500 === 0) progress?.(checked);
  }
  if (!ended) return fail(expected, 'the log has no end line: it was cut short');
  return { ok: true, checked, head: checked ? { seq: expected - 1, hash: prevHash } : null };
}
