import { hash } from 'node:crypto';
import { io as connect, type Socket } from 'socket.io-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { client, PASSWORDS, startTestServer, type TestServer } from '../../tests/support/server.ts';
import { waitFor } from '../../tests/support/wait.ts';

/** CONTRACT §9: a browser's identity is a secret; strokes name their author by a public id. */
let t: TestServer;
const sockets: Socket[] = [];

beforeAll(async () => {
  t = await startTestServer();
});
afterAll(async () => {
  for (const s of sockets) s.close();
  await t.close();
});

interface Browser {
  cookies: string;
  token: string;
  visitorCookie: string;
  api: ReturnType<typeof client>;
}

/** Logs a browser in as a guest with the cookies it has, keeping the ones the server sets. */
async function login(cookies = ''): Promise<Browser> {
  const res = await fetch(`${t.url}/api/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(cookies ? { cookie: cookies } : {}) },
    body: JSON.stringify({ password: PASSWORDS.guest }),
  });
  expect(res.status).toBe(200);
  const set = new Map(cookies ? cookies.split('; ').map((c) => c.split('=', 2) as [string, string]) : []);
  for (const c of res.headers.getSetCookie()) {
    const [pair] = c.split(';');
    const at = pair!.indexOf('=');
    set.set(pair!.slice(0, at), pair!.slice(at + 1));
  }
  const jar = [...set].map(([k, v]) => `${k}=${v}`).join('; ');
  const token = ((await res.json()) as { sessionToken: string }).sessionToken;
  return {
    cookies: jar,
    token,
    visitorCookie: set.get('tg_visitor')!,
    api: (method, url, body, headers = {}) => client(t.url)(method, url, body, { cookie: jar, ...headers }),
  };
}

const visitorIdOf = async (token: string) =>
  (
    await t.db.pool.query<{ id: string }>(`SELECT visitor_id::text AS id FROM sessions WHERE token_hash = $1`, [
      hash('sha256', token, 'hex'),
    ])
  ).rows[0]!.id;

const stroke = {
  tool: 'brush',
  color: '#2563eb',
  size: 8,
  opacity: 100,
  points: [
    [10, 10],
    [40, 40],
  ],
};

/** A screen showing the mural as well (decision 116: strokes go only to screens that show it). */
function open(token: string): Promise<{ socket: Socket; received: unknown[] }> {
  const socket = connect(t.url, { auth: { token, mural: true }, transports: ['websocket'], reconnection: false });
  sockets.push(socket);
  const received: unknown[] = [];
  socket.onAny((event: string, payload: unknown) => received.push({ event, payload }));
  return new Promise((resolve, reject) => {
    socket.once('sync:batch', () => resolve({ socket, received }));
    socket.once('connect_error', reject);
  });
}

describe('a browser’s identity (CONTRACT §9)', () => {
  it('is not the id its strokes name: a browser using that id as its cookie is not the author', async () => {
    const ann = await login();
    const drawn = await ann.api('POST', '/api/mural/strokes', stroke);
    expect(drawn.status).toBe(201);
    // whatever the stroke names its author by, as every guest reads it
    const shown = await waitFor(async () => {
      const { body } = await ann.api('GET', '/api/mural');
      return body.strokes.find((s: { id: number }) => s.id === drawn.body.id) as Record<string, unknown> | undefined;
    });
    const named = String(shown.authorId ?? shown.visitorId);
    expect(named).not.toBe(ann.visitorCookie);

    const mallory = await login(`tg_visitor=${named}`);
    expect(mallory.visitorCookie).not.toBe(named);
    expect(await visitorIdOf(mallory.token)).not.toBe(await visitorIdOf(ann.token));
    const undo = await mallory.api('DELETE', `/api/mural/strokes/${drawn.body.id}`);
    expect(undo.status).toBe(403);
    expect((await ann.api('GET', '/api/mural')).body.strokes.map((s: { id: number }) => s.id)).toContain(drawn.body.id);
    // the author still undoes their own
    expect((await ann.api('DELETE', `/api/mural/strokes/${drawn.body.id}`)).status).toBe(200);
  });

  it('never reaches another guest: no answer or live message to them holds the cookie or the visitor id', async () => {
    const admin = client(t.url, await t.login('admin'));
    const story = await admin('POST', '/api/stories', {
      content: 'Happy birthday',
      authorName: 'Ann',
      email: 'ann@example.com',
    });
    expect(story.status).toBe(201);
    expect((await admin('PATCH', `/api/admin/stories/${story.body.id}`, { status: 'approved' })).status).toBe(200);

    const bob = await login();
    const watching = await open(bob.token);
    const ann = await login();
    const secrets = [ann.visitorCookie, await visitorIdOf(ann.token)];
    const drawn = await ann.api('POST', '/api/mural/strokes', stroke);
    expect(drawn.status).toBe(201);
    expect((await ann.api('POST', `/api/stories/${story.body.id}/likes`)).status).toBe(200);
    expect(
      (await ann.api('POST', `/api/stories/${story.body.id}/comments`, { authorName: 'Ann', content: 'Hi' })).status,
    ).toBe(201);
    await waitFor(async () =>
      JSON.stringify(watching.received).includes(`"id":${drawn.body.id}`) &&
      JSON.stringify(watching.received).includes('comments:added')
        ? true
        : undefined,
    );

    const answers = await Promise.all(
      [
        '/api/mural',
        '/api/gallery',
        '/api/stories',
        `/api/stories/${story.body.id}`,
        `/api/stories/${story.body.id}/likes`,
        `/api/stories/${story.body.id}/comments`,
        '/api/show',
        '/api/auth/session',
      ].map(async (url) => {
        const res = await bob.api('GET', url);
        expect(res.status, url).toBe(200);
        return JSON.stringify(res.body);
      }),
    );
    const seen = [...answers, JSON.stringify(watching.received)].join('\n');
    expect(seen).toContain(`"id":${drawn.body.id}`);
    for (const secret of secrets) expect(seen).not.toContain(secret);
  });

  it('is given a secret, once, to a browser from before secrets, and only beside its own session', async () => {
    const old = await login();
    const visitorId = await visitorIdOf(old.token);
    await t.db.pool.query(`UPDATE visitors SET secret_hash = NULL WHERE id = $1`, [visitorId]);
    // its old cookie alone (what GET /api/mural used to give everyone) names no one
    const mallory = await login(`tg_visitor=${visitorId}`);
    expect(await visitorIdOf(mallory.token)).not.toBe(visitorId);
    // beside its session, the old cookie is upgraded on its next request
    const res = await client(t.url)('GET', '/api/auth/session', undefined, {
      cookie: `tg_session=${old.token}; tg_visitor=${visitorId}`,
    });
    expect(res.status).toBe(200);
    const secret = /tg_visitor=([^;]+)/.exec(res.headers.getSetCookie().join('\n'))?.[1];
    expect(secret).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const again = await login(`tg_visitor=${secret}`);
    expect(await visitorIdOf(again.token)).toBe(visitorId);
  });
});
