import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { extractText, getDocumentProxy } from 'unpdf';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { jpegDataUrl } from './support/images.ts';
import { client, startTestServer, type TestServer } from './support/server.ts';
import { appended, waitFor } from './support/wait.ts';

/** Not today: what the program records or shows at this time was read from the clock it was given. */
const FIXED = new Date('2024-02-29T10:11:12.345Z');
const AT = FIXED.toISOString();

/**
 * One clock (decision 147): a server started on a fixed clock writes that time into a request's
 * events, a job's event, an approval's live message, the anchor an auditor's verify writes, and the
 * keepsake (its page's `madeAt`, its book's date, its files' names).
 */
describe('one clock', () => {
  let t: TestServer;
  let guest: ReturnType<typeof client>;
  let admin: ReturnType<typeof client>;
  let dir: string;
  beforeAll(async () => {
    t = await startTestServer({}, 'all', () => new Date(FIXED));
    guest = client(t.url, await t.login('guest'));
    admin = client(t.url, await t.login('admin'));
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'one-clock-'));
  });
  afterAll(async () => {
    await t.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it("stamps a request's events, a job's event and the day of an approval's live message with it", async () => {
    const created = await guest('POST', '/api/artworks', {
      title: 'A leap day',
      description: 'Once in four years',
      imageData: await jpegDataUrl(),
      artistName: 'Sam Painter',
      email: 'sam@example.com',
      isFromCanvas: 'false',
    });
    expect(created.status).toBe(201);
    const id = created.body.id as number;
    const reviewed = await admin('PATCH', `/api/admin/artworks/${id}`, { status: 'approved', adminNotes: 'Lovely' });
    expect(reviewed.status).toBe(200);
    expect(reviewed.body.approvedAt).toBe(AT);
    // the renditions' event is the job's (api/jobs/handlers.ts)
    await appended(t.db.pool, 'ArtworkRenditionsMade', 1, `artwork-${id}`);

    const { rows } = await t.db.pool.query<{ type: string; now: string; approved_at: string | null }>(
      `SELECT type, metadata->>'now' AS now, data->>'approvedAt' AS approved_at
       FROM events WHERE stream_id = $1 ORDER BY position`,
      [`artwork-${id}`],
    );
    expect(rows.map((r) => r.type)).toEqual(['ArtworkSubmitted', 'ArtworkApproved', 'ArtworkRenditionsMade']);
    expect(rows.map((r) => r.now)).toEqual([AT, AT, AT]);
    expect(rows[1]!.approved_at).toBe(AT);

    // the worker dates the message by its clock's day, in the process's zone (UTC here)
    const added = await waitFor(async () => {
      const { rows: messages } = await t.db.pool.query<{ payload: { day: string; kind: string } }>(
        `SELECT payload FROM live_messages WHERE event = 'gallery:item-added'`,
      );
      return messages[0]?.payload;
    });
    expect(added).toMatchObject({ kind: 'artwork', day: '2024-02-29' });
  });

  it("stamps the anchor an auditor's verify writes with it", async () => {
    const auditor = client(t.url, await t.login('auditor'));
    const verified = await auditor('GET', '/api/admin/events/verify');
    expect(verified.status).toBe(200);
    expect(verified.body).toMatchObject({ ok: true, anchor: { at: AT } });
    const head = JSON.parse(fs.readFileSync(path.join(t.dataDir, 'anchors/head.json'), 'utf8')) as { at: string };
    expect(head.at).toBe(AT);
  });

  it("dates the keepsake by it: the page's madeAt, the book's cover, the files' names", async () => {
    const token = await t.login('admin');
    const zip = await fetch(`${t.url}/api/admin/keepsake`, { headers: { 'x-session-token': token } });
    expect(zip.status).toBe(200);
    expect(zip.headers.get('content-disposition')).toContain('keepsake-2024-02-29.zip');
    const file = path.join(dir, 'keepsake.zip');
    fs.writeFileSync(file, Buffer.from(await zip.arrayBuffer()));
    const data = spawnSync('unzip', ['-p', file, 'data.js'], { encoding: 'utf8' });
    expect(data.status, data.stderr).toBe(0);
    const first = /^window\.KEEPSAKE=(.*);$/m.exec(data.stdout)?.[1];
    expect(JSON.parse(first!)).toMatchObject({ madeAt: AT });

    const book = await fetch(`${t.url}/api/admin/keepsake.pdf`, { headers: { 'x-session-token': token } });
    expect(book.status).toBe(200);
    expect(book.headers.get('content-disposition')).toContain('keepsake-2024-02-29.pdf');
    const pdf = new Uint8Array(await book.arrayBuffer());
    const { text } = await extractText(await getDocumentProxy(pdf), { mergePages: true });
    expect(text.replace(/\s+/g, ' ')).toContain('29 February 2024');
  });
});
