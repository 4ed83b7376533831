import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkStrokes, type StrokeRecording } from '#contract/strokes.ts';
import { jpegDataUrl, paintedDataUrl } from '../../tests/support/images.ts';
import { client, startTestServer, type TestServer } from '../../tests/support/server.ts';

let t: TestServer;
let guest: ReturnType<typeof client>;
let admin: ReturnType<typeof client>;
beforeAll(async () => {
  t = await startTestServer();
  guest = client(t.url, await t.login('guest'));
  admin = client(t.url, await t.login('admin'));
});
afterAll(() => t.close());

const recording = (strokes = 2): StrokeRecording => ({
  version: 1,
  width: 800,
  height: 400,
  background: '#ffffff',
  strokes: Array.from({ length: strokes }, (_, i) => ({
    tool: 'brush' as const,
    color: '#dc2626',
    fill: null,
    size: 5,
    opacity: 100,
    t: i * 500,
    points: [10, 10, 0, 100, 50, 40, 200, 120, 90],
  })),
});

/** A drawing sent with `extra`; a good recording comes with its own last frame as the image (CONTRACT §9). */
const drawing = async (extra: Record<string, unknown>) =>
  guest('POST', '/api/artworks', {
    imageData: checkStrokes(extra.strokes).ok ? paintedDataUrl(extra.strokes as StrokeRecording) : await jpegDataUrl(),
    artistName: 'Sam Painter',
    email: 'sam@example.com',
    isFromCanvas: 'true',
    ...extra,
  });

async function artworkCount() {
  const { rows } = await t.db.pool.query(`SELECT count(*)::int AS n FROM events WHERE type = 'ArtworkSubmitted'`);
  return rows[0].n as number;
}

describe('stroke replay (CONTRACT §7)', () => {
  it('keeps the strokes a drawing carries and serves them once the drawing is visible', async () => {
    const strokes = recording();
    const created = await drawing({ strokes });
    expect(created.status).toBe(201);
    const url = `/api/artworks/${created.body.id}/strokes`;
    // pending: hidden from guests like the drawing, shown to the admin
    expect(await guest('GET', url)).toMatchObject({ status: 404, body: { message: 'Artwork not found' } });
    expect((await admin('GET', url)).body).toEqual(strokes);
    await admin('PATCH', `/api/admin/artworks/${created.body.id}`, { status: 'approved' });
    expect(await guest('GET', url)).toMatchObject({ status: 200, body: strokes });
  });

  it('answers 404 for an upload and an unknown artwork', async () => {
    const upload = await guest('POST', '/api/artworks', {
      imageData: await jpegDataUrl(),
      artistName: 'Sam Painter',
      email: 'sam@example.com',
    });
    await admin('PATCH', `/api/admin/artworks/${upload.body.id}`, { status: 'approved' });
    expect(await guest('GET', `/api/artworks/${upload.body.id}/strokes`)).toMatchObject({
      status: 404,
      body: { message: 'Strokes not found' },
    });
    expect((await guest('GET', '/api/artworks/999999/strokes')).status).toBe(404);
  });

  it('refuses bad strokes (400), strokes with an upload (400) and more than 512 KB (413), writing nothing', async () => {
    const before = await artworkCount();
    const bad = { ...recording(), strokes: [{ ...recording().strokes[0], tool: 'laser' }] };
    expect(await drawing({ strokes: bad })).toMatchObject({
      status: 400,
      body: { message: 'Stroke 1 has an unknown tool', errors: [{ path: 'strokes' }] },
    });
    expect((await drawing({ strokes: { version: 2 } })).status).toBe(400);
    expect((await drawing({ strokes: recording(), isFromCanvas: 'false' })).body).toMatchObject({
      message: 'Strokes come only with a drawing',
    });
    const huge = recording(4400); // about 535 KB of JSON
    expect(JSON.stringify(huge).length).toBeGreaterThan(512 * 1024);
    expect(await drawing({ strokes: huge })).toMatchObject({ status: 413, body: { message: 'Strokes too large' } });
    expect(await artworkCount()).toBe(before);
    // just under the limit is fine
    const big = recording(4200);
    expect(JSON.stringify(big).length).toBeLessThan(512 * 1024);
    expect((await drawing({ strokes: big })).status).toBe(201);
  });
});
