import http from 'node:http';
import { crc32, deflateSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { client, startTestServer, type TestServer } from '../../tests/support/server.ts';

let t: TestServer;
beforeAll(async () => {
  t = await startTestServer();
});
afterAll(() => t.close());

const written = async () => (await t.db.pool.query(`SELECT count(*)::int AS n FROM events`)).rows[0].n as number;

/** `{"password": [[[ ... "x" ... ]]]}`: the password nested `depth` levels down (the object is one more). */
const nested = (depth: number) => `{"password":${'['.repeat(depth)}"x"${']'.repeat(depth)}}`;

/** A PNG whose header says width × height, with a few bytes of pixels: any decoder would fail on it. */
function pngHeaderOnly(width: number, height: number): Buffer {
  const chunk = (type: string, data: Buffer) => {
    const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
    const length = Buffer.alloc(4);
    length.writeUInt32BE(data.length);
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(crc32(body));
    return Buffer.concat([length, body, crc]);
  };
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header.set([8, 2, 0, 0, 0], 8); // 8 bits, RGB, no interlace
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(Buffer.alloc(64))),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

describe('bad input is cheap to refuse (CONTRACT §9)', () => {
  it('refuses JSON nested deeper than 32 levels with 400 before login, and takes 32', async () => {
    const login = (body: string) => client(t.url)('POST', '/api/auth/login', body);
    for (const depth of [32, 100, 50_000]) {
      const res = await login(nested(depth));
      expect(res.status, `${depth} deep`).toBe(400);
      expect(res.body.message).toBe('JSON nested deeper than 32 levels');
    }
    // 32 levels in all is JSON like any other: here, not a password (the schema's 400)
    const fine = await login(nested(31));
    expect(fine.status).toBe(400);
    expect(fine.body.message).not.toContain('nested');
    // brackets inside strings are text, not nesting
    expect((await login(JSON.stringify({ password: '['.repeat(1000) }))).status).toBe(401);
  });

  it('refuses JSON nested deeper than 32 levels on a signed-in call, writing nothing', async () => {
    const guest = client(t.url, await t.login('guest'));
    const before = await written();
    const deep = `{"content":"hi","authorName":"Kim","isAnonymous":true,"extra":${'{"a":'.repeat(16_000)}1${'}'.repeat(16_000)}}`;
    const res = await guest('POST', '/api/stories', deep);
    expect(res).toMatchObject({ status: 400, body: { message: 'JSON nested deeper than 32 levels' } });
    expect(await written()).toBe(before);
  });

  it('refuses a body on a call that takes none with 400', async () => {
    const token = await t.login('guest');
    const body = JSON.stringify({ some: 'thing' });
    // fetch sends no body with GET: node:http does
    const withBody = (method: string, path: string) =>
      new Promise<{ status: number; body: string }>((resolve, reject) => {
        const req = http.request(`${t.url}${path}`, {
          method,
          headers: {
            'x-session-token': token,
            'content-type': 'application/json',
            'content-length': String(Buffer.byteLength(body)),
          },
        });
        req.on('response', (res) => {
          let text = '';
          res.on('data', (d) => (text += d));
          res.on('end', () => resolve({ status: res.statusCode!, body: text }));
        });
        req.on('error', reject);
        req.end(body);
      });
    for (const [method, path] of [
      ['GET', '/api/gallery'],
      ['DELETE', '/api/mural/strokes/1'],
    ] as const) {
      const res = await withBody(method, path);
      expect(res.status, `${method} ${path}`).toBe(400);
      expect(JSON.parse(res.body)).toEqual({ message: 'This call takes no body' });
    }
    expect((await client(t.url, token)('GET', '/api/gallery')).status).toBe(200);
  });

  it('refuses an image over 100 megapixels with 400 Image too large from its header, writing nothing', async () => {
    const guest = client(t.url, await t.login('guest'));
    const before = await written();
    const submit = (png: Buffer) =>
      guest('POST', '/api/artworks', {
        title: 'Huge',
        imageData: `data:image/png;base64,${png.toString('base64')}`,
        artistName: 'Sam',
        email: 'sam@example.com',
      });
    // 10,001 × 10,000 is just over; the pixels are not there, so only the header can have been read
    for (const [width, height] of [
      [10_001, 10_000],
      [100_000, 100_000],
    ] as const) {
      const res = await submit(pngHeaderOnly(width, height));
      expect(res, `${width} × ${height}`).toMatchObject({ status: 400, body: { message: 'Image too large' } });
    }
    expect(await written()).toBe(before);
    // at the limit the header passes, and the missing pixels are what is refused
    expect((await submit(pngHeaderOnly(10_000, 10_000))).body.message).toBe('Invalid file type');
  });
});
