import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { jpegDataUrl } from '../../tests/support/images.ts';
import { client, startTestServer, type TestServer } from '../../tests/support/server.ts';

let t: TestServer;
beforeAll(async () => {
  t = await startTestServer();
});
afterAll(() => t.close());

describe('isFromCanvas', () => {
  it("is the text 'true' or 'false': a boolean or other text is refused with 400, nothing stored", async () => {
    const guest = client(t.url, await t.login('guest'));
    const base = { artistName: 'Canvas Checker', email: 'canvas@example.com', imageData: await jpegDataUrl() };
    for (const wrong of [true, false, 'yes', 1]) {
      const res = await guest('POST', '/api/artworks', { ...base, isFromCanvas: wrong });
      expect(res.status, JSON.stringify(wrong)).toBe(400);
      expect(res.body.errors).toEqual([
        { path: 'isFromCanvas', message: "isFromCanvas must be the text 'true' or 'false'" },
      ]);
    }
    const { rows } = await t.db.pool.query(`SELECT count(*)::int AS n FROM events WHERE type = 'ArtworkSubmitted'`);
    expect(rows[0].n).toBe(0);

    const drawn = await guest('POST', '/api/artworks', { ...base, isFromCanvas: 'true' });
    const uploaded = await guest('POST', '/api/artworks', { ...base, isFromCanvas: 'false' });
    const unsaid = await guest('POST', '/api/artworks', base);
    expect([drawn.status, uploaded.status, unsaid.status]).toEqual([201, 201, 201]);
    const stored = await t.db.pool.query<{ from_canvas: boolean }>(
      `SELECT (data->>'isFromCanvas')::boolean AS from_canvas FROM events WHERE type = 'ArtworkSubmitted' ORDER BY position`,
    );
    expect(stored.rows.map((r) => r.from_canvas)).toEqual([true, false, false]);
  });
});
