import { checkChain, type ChainCheck } from '../../contract/chainCheck.ts';

/**
 * The keepsake's check of its log in the browser (CONTRACT §10): the one check that
 * `npm run events -- verify --file` runs too (`contract/chainCheck.ts`, decision 126), with Web Crypto.
 */
export type LogCheck = ChainCheck;

const hex = (buf: ArrayBuffer) => [...new Uint8Array(buf)].map((b) => b.toString(16).padStart(2, '0')).join('');
const utf8 = (text: string) => new TextEncoder().encode(text);
const sha256 = async (text: string) => hex(await crypto.subtle.digest('SHA-256', utf8(text)));

/** A scheme 3 link: HMAC-SHA256 under LOG_HMAC_KEY (its UTF-8 bytes, as the server takes it). */
async function hmacUnder(key: string): Promise<(text: string) => Promise<string>> {
  const secret = await crypto.subtle.importKey('raw', utf8(key), { name: 'HMAC', hash: 'SHA-256' }, false, ['sign']);
  return async (text) => hex(await crypto.subtle.sign('HMAC', secret, utf8(text)));
}

/**
 * Checks every line of a log, from seq 1. Links sealed under LOG_HMAC_KEY (scheme 3) need the key,
 * which is in no file of the keepsake: without it the check stops at the first keyed link and says so
 * (`needsKey`).
 */
export async function checkLog(
  lines: readonly string[],
  progress?: (n: number) => void,
  hmacKey?: string,
): Promise<LogCheck> {
  const hmac = hmacKey ? await hmacUnder(hmacKey) : undefined;
  const result = await checkChain(lines, { hashes: { sha256, ...(hmac ? { hmac } : {}) }, progress });
  if (!result.ok && result.needsKey) {
    return {
      ...result,
      reason: 'this link was sealed with the gallery’s secret key (LOG_HMAC_KEY): enter it to check',
    };
  }
  return result;
}
