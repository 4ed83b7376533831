import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { endLine, exportLine, type LogLine } from '#contract/logLine.ts';
import { commitment, legacyHash, linkHash } from '#events/canonical.ts';
import { verifyExportFile } from '#events/verifyFile.ts';
import { checkLog } from '../web/keepsake/verifyLog.ts';

/**
 * The CLI's `verify --file` (Node's crypto) and the keepsake's verify.html (Web Crypto) run one check
 * (decision 126): given the same lines they say the same thing, whatever is wrong with them.
 */
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'chain-check-'));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

const KEY = 'the-log-key';
const base = (seq: number): Omit<LogLine, 'prevHash' | 'hash' | 'scheme'> => ({
  seq,
  position: seq,
  streamId: `story-${seq}`,
  version: 1,
  type: 'StorySubmitted',
  schemaVersion: 2,
  data: { storyId: seq, titleRef: String(seq) },
  metadata: { role: 'guest' },
  recordedAt: `2026-11-24T13:18:0${seq}.123456Z`,
  actor: { role: 'guest', name: null },
});

/** A log of `schemes.length` events, each sealed by its scheme; scheme 2 and 3 lines commit to a title. */
function log(schemes: number[]): string[] {
  let prevHash = '0'.repeat(64);
  const lines = schemes.map((scheme, i) => {
    const e = base(i + 1);
    let line: LogLine;
    if (scheme === 1) {
      const legacy = [e.position, e.streamId, e.version, e.type, e.schemaVersion]
        .concat([JSON.stringify(e.data), JSON.stringify(e.metadata), e.recordedAt])
        .join('\n');
      line = { ...e, prevHash, hash: legacyHash(prevHash, legacy), scheme, legacy };
    } else {
      const salt = `salt${i}`;
      const title = `Title ${i + 1}`;
      const commitments = { titleRef: commitment(salt, title) };
      const hash = linkHash({ ...e, prevHash, commitments }, scheme === 3 ? KEY : undefined);
      line = { ...e, personal: { titleRef: title }, commitments, salts: { titleRef: salt }, prevHash, hash, scheme };
    }
    prevHash = line.hash;
    return exportLine(line);
  });
  return [...lines, endLine(lines.length, { seq: lines.length, hash: prevHash })];
}

/** What each checker says of these lines, in the same shape. */
async function both(lines: string[], key?: string) {
  const file = path.join(dir, `${Math.random()}.ndjson`);
  fs.writeFileSync(file, lines.join('\n') + '\n');
  const cli = await verifyExportFile(file, { hmacKey: key });
  const page = await checkLog(lines, undefined, key);
  const said = (r: typeof cli) =>
    r.ok ? { ok: true, checked: r.checked, head: r.head } : { ok: false, checked: r.checked, seq: r.firstBadSeq };
  expect(said(page)).toEqual(said(cli));
  return { cli, page };
}

const edit = (lines: string[], at: number, change: (e: LogLine) => void) =>
  lines.map((l, i) => {
    if (i !== at) return l;
    const e = JSON.parse(l) as LogLine;
    change(e);
    return exportLine(e);
  });

describe('one check of the chain, in Node and in the browser', () => {
  const lines = log([1, 2, 2, 2]);

  it('both verify a whole log, with the same count and head', async () => {
    const { cli } = await both(lines);
    expect(cli).toMatchObject({ ok: true, checked: 4, head: { seq: 4 } });
  });

  it('both find an edited word, an edited event and a missing line at the same seq', async () => {
    const word = await both(edit(lines, 2, (e) => (e.personal!.titleRef = 'Another title')));
    expect(word.page).toMatchObject({ ok: false, firstBadSeq: 3, reason: 'personal value edited (titleRef)' });
    const event = await both(edit(lines, 1, (e) => ((e.data as { storyId: number }).storyId = 99)));
    expect(event.page).toMatchObject({ ok: false, firstBadSeq: 2, reason: 'event edited' });
    const missing = await both(lines.filter((_, i) => i !== 2));
    expect(missing.page).toMatchObject({ ok: false, firstBadSeq: 3, reason: 'seq 3 is missing' });
  });

  it("both hold a first-scheme line's words to the text its link covers", async () => {
    // the link covers the legacy text; a line whose own fields were changed beside it is edited
    const { page } = await both(edit(lines, 0, (e) => ((e.data as { storyId: number }).storyId = 7)));
    expect(page).toMatchObject({ ok: false, firstBadSeq: 1, reason: 'event edited' });
  });

  it('both refuse a link sealed with an older scheme after a newer one', async () => {
    const { page } = await both(log([2, 1]));
    expect(page).toMatchObject({ ok: false, firstBadSeq: 2, reason: 'link sealed with an older scheme' });
  });

  it('both stop at a keyed link without the key, and check it with the key', async () => {
    const keyed = log([2, 3, 3]);
    const without = await both(keyed);
    expect(without.page).toMatchObject({ ok: false, firstBadSeq: 2, needsKey: true });
    expect(without.cli).toMatchObject({ reason: 'keyed link: set LOG_HMAC_KEY to verify it' });
    expect((await both(keyed, 'not-the-key')).page).toMatchObject({
      firstBadSeq: 2,
      reason: 'event edited, or not this key',
    });
    expect((await both(keyed, KEY)).page).toMatchObject({ ok: true, checked: 3 });
  });
});
