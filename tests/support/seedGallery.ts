import fs from 'node:fs';
import type { Browser, BrowserContext, BrowserContextOptions, Page } from 'playwright-core';
import { jpegDataUrl } from './images.ts';
import { makeTestMedia } from './media.ts';
import { client, PASSWORDS, type TestServer } from './server.ts';

type Call = ReturnType<typeof client>;

export interface Seeder {
  guest: Call;
  admin: Call;
  artwork(fields: { title?: string; artistName?: string; description?: string; color?: string }): Promise<number>;
  story(fields: { title?: string; content: string; authorName?: string; isAnonymous?: boolean }): Promise<number>;
  media(fields: {
    file: 'mp4' | 'mp3';
    title?: string;
    description?: string;
    tags?: string;
    artistName?: string;
  }): Promise<number>;
  comment(kind: 'artworks' | 'stories' | 'media', id: number, content: string): Promise<void>;
}

function ok<T>(response: { status: number; body: T }, what: string): T {
  if (response.status >= 300) throw new Error(`${what}: ${response.status} ${JSON.stringify(response.body)}`);
  return response.body;
}

/** Approved gallery items made through the real API, as a visitor and an admin would. */
export async function seeder(t: TestServer): Promise<Seeder> {
  const guest = client(t.url, await t.login('guest'));
  const admin = client(t.url, await t.login('admin'));
  // submissions come from a new visitor every 20, as from a room of colleagues: one visitor may
  // submit 30 an hour (api/limits), and a gallery of 128 items is many people's work
  let writer = { token: '', writes: 20 };
  const submitter = async () => {
    if (writer.writes >= 20) writer = { token: await t.login('guest'), writes: 0 };
    writer.writes++;
    return writer.token;
  };
  const approve = async (path: string, id: number) =>
    ok(await admin('PATCH', `/api/admin/${path}/${id}`, { status: 'approved' }), `approve ${path} ${id}`);

  return {
    guest,
    admin,
    async artwork({ title = '', artistName = 'Sam Painter', description = '', color = '#e07a5f' }) {
      const body = ok(
        await client(t.url, await submitter())('POST', '/api/artworks', {
          title,
          description,
          artistName,
          email: 'artist@example.com',
          imageData: await jpegDataUrl(320, 240, color),
          isFromCanvas: 'false',
        }),
        'artwork',
      ) as { id: number };
      await approve('artworks', body.id);
      return body.id;
    },
    async story({ title, content, authorName = 'Robin Writer', isAnonymous = false }) {
      const body = ok(
        await client(t.url, await submitter())('POST', '/api/stories', {
          title: title ?? null,
          content,
          authorName: isAnonymous ? 'Anonymous' : authorName,
          email: 'writer@example.com',
          isAnonymous,
        }),
        'story',
      ) as { id: number };
      await approve('stories', body.id);
      return body.id;
    },
    async media({ file, title, description, tags, artistName = 'Val Filmer' }) {
      const files = await makeTestMedia();
      const guestToken = await submitter();
      writer.writes++; // the upload and the submission both count
      const mimeType = file === 'mp4' ? 'video/mp4' : 'audio/mpeg';
      const form = new FormData();
      form.append('file', new Blob([fs.readFileSync(files[file])], { type: mimeType }), `clip.${file}`);
      const uploadResponse = await fetch(`${t.url}/api/upload-direct`, {
        method: 'POST',
        headers: { 'x-session-token': guestToken },
        body: form,
      });
      const upload = ok(
        { status: uploadResponse.status, body: (await uploadResponse.json()) as { path: string } },
        'upload',
      );
      const body = ok(
        await client(t.url, guestToken)('POST', '/api/media', {
          title,
          description,
          tags,
          artistName,
          email: 'filmer@example.com',
          mediaType: file === 'mp4' ? 'video' : 'audio',
          mediaData: upload.path,
          mimeType,
        }),
        'media',
      ) as { id: number };
      await approve('media', body.id);
      return body.id;
    },
    async comment(kind, id, content) {
      ok(await guest('POST', `/api/${kind}/${id}/comments`, { authorName: 'Casey Commenter', content }), 'comment');
    },
  };
}

/** A browser context whose visitor is already through the gate (cookie and stored flags), without the UI. */
export async function signedInContext(
  browser: Browser,
  t: TestServer,
  role: 'guest' | 'admin',
  options: BrowserContextOptions = {},
): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({ baseURL: t.url, viewport: { width: 1280, height: 800 }, ...options });
  const response = await context.request.post('/api/auth/login', {
    data: { password: PASSWORDS[role] },
  });
  const { sessionToken } = (await response.json()) as { sessionToken: string };
  await context.addInitScript(
    ({ token, admin }) => {
      // a new page's about:blank has no storage of its own to seed (reading it throws)
      if (!location.protocol.startsWith('http')) return;
      if (sessionStorage.getItem('seeded-session')) return;
      sessionStorage.setItem('seeded-session', '1');
      localStorage.setItem('isAuthenticated', 'true');
      localStorage.setItem('sessionToken', token);
      if (admin) localStorage.setItem('isAdmin', 'true');
    },
    { token: sessionToken, admin: role === 'admin' },
  );
  const page = await context.newPage();
  return { context, page };
}
