import { createHash, createHmac } from 'node:crypto';
import fs from 'node:fs';
import readline from 'node:readline';
import { checkChain, type ChainCheck } from '../contract/chainCheck.ts';
import { logHmacKey } from './canonical.ts';

export type FileVerifyResult = ChainCheck;

/**
 * Verifies an export (`events export`) with no database, by the one check the keepsake's page runs
 * too (`contract/chainCheck.ts`, decision 126), with Node's hashes. An export that starts after seq 1
 * (`--from`) is checked from its first line on. Keyed links are checked under `hmacKey` (default: the
 * process's LOG_HMAC_KEY).
 */
export async function verifyExportFile(
  file: string,
  { hmacKey }: { hmacKey: string | undefined } = { hmacKey: logHmacKey() },
): Promise<FileVerifyResult> {
  const lines = readline.createInterface({ input: fs.createReadStream(file, 'utf8'), crlfDelay: Infinity });
  const result = await checkChain(lines, {
    fromAnySeq: true,
    hashes: {
      sha256: (text) => createHash('sha256').update(text, 'utf8').digest('hex'),
      ...(hmacKey ? { hmac: (text: string) => createHmac('sha256', hmacKey).update(text, 'utf8').digest('hex') } : {}),
    },
  });
  lines.close();
  if (!result.ok && result.needsKey) return { ...result, reason: 'keyed link: set LOG_HMAC_KEY to verify it' };
  return result;
}
