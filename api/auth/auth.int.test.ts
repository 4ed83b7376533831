import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { client, PASSWORDS, startTestServer, type TestServer } from '../../tests/support/server.ts';

let t: TestServer;
beforeAll(async () => {
  t = await startTestServer({ TRIBUTE_NAME: 'Robin', TRIBUTE_AGE: '50', TRIBUTE_BIRTHDAY: '2025-09-12' });
});
afterAll(() => t.close());

describe('login', () => {
  it.each(['guest', 'admin', 'auditor'] as const)('logs in as %s and sets an httpOnly cookie', async (role) => {
    const res = await fetch(`${t.url}/api/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ password: PASSWORDS[role] }),
    });
    expect(res.status).toBe(200);
    const body = (await res.json()) as { success: boolean; userType: string; sessionToken: string };
    expect(body).toMatchObject({ success: true, userType: role });
    const cookie = res.headers.get('set-cookie') ?? '';
    expect(cookie).toContain(`tg_session=${body.sessionToken}`);
    expect(cookie).toMatch(/HttpOnly/i);
    expect(cookie).toMatch(/SameSite=Lax/i);
    const session = await fetch(`${t.url}/api/auth/session`, {
      headers: { cookie: `tg_session=${body.sessionToken}` },
    });
    expect(await session.json()).toMatchObject({ userType: role });
  });

  it('refuses a wrong password with the spec message', async () => {
    const api = client(t.url);
    expect(await api('POST', '/api/auth/login', { password: 'nope' })).toMatchObject({
      status: 401,
      body: { success: false, message: 'Incorrect password. Please try again.' },
    });
  });

  it('answers bad bodies with 400, never 500', async () => {
    const api = client(t.url);
    expect((await api('POST', '/api/auth/login', '{"password":')).status).toBe(400);
    expect((await api('POST', '/api/auth/login', { password: 42 })).status).toBe(400);
    expect((await api('POST', '/api/auth/login', {})).status).toBe(400);
    expect((await api('POST', '/api/auth/login', 'x'.repeat(200_000))).status).toBe(413);
  });

  it('logs out: the token stops working', async () => {
    const token = await t.login('guest');
    const api = client(t.url, token);
    expect((await api('GET', '/api/gallery')).status).toBe(200);
    expect((await api('POST', '/api/auth/logout')).status).toBe(200);
    expect(await api('GET', '/api/gallery')).toMatchObject({
      status: 401,
      body: { message: 'Authentication required' },
    });
  });
});

describe('the gate', () => {
  it('tells nothing but whether there is a riddle today', async () => {
    const { body } = await client(t.url)('GET', '/api/gate');
    expect(body).toEqual({ riddle: null });
    expect(JSON.stringify(body)).not.toContain('Robin');
  });

  it('keeps the honoree and the dates behind login', async () => {
    expect((await client(t.url)('GET', '/api/tribute')).status).toBe(401);
    const { body } = await client(t.url, await t.login('guest'))('GET', '/api/tribute');
    expect(body).toMatchObject({ name: 'Robin', celebrationStart: '2025-09-11' });
  });

  it('refuses the riddle on any other day', async () => {
    expect((await client(t.url)('POST', '/api/auth/riddle', { answer: 'fifty' })).status).toBe(403);
  });
});

describe('login rate limit', () => {
  it('answers 429 after 10 failures from one address within a minute', async () => {
    const limited = await startTestServer();
    try {
      const api = client(limited.url);
      for (let i = 0; i < 10; i++) expect((await api('POST', '/api/auth/login', { password: 'bad' })).status).toBe(401);
      expect((await api('POST', '/api/auth/login', { password: 'bad' })).status).toBe(429);
      expect((await api('POST', '/api/auth/login', { password: PASSWORDS.guest })).status).toBe(429);
    } finally {
      await limited.close();
    }
  });
});

describe('the riddle on the birthday', () => {
  it('lets a guest in with the age in words, spaces and case ignored', async () => {
    const today = new Date().toISOString().slice(0, 10);
    const bday = await startTestServer({ TRIBUTE_NAME: 'Robin', TRIBUTE_AGE: '50', TRIBUTE_BIRTHDAY: today });
    try {
      const api = client(bday.url);
      expect((await api('GET', '/api/gate')).body).toEqual({ riddle: 'How old is Robin turning?' });
      expect((await api('POST', '/api/auth/riddle', { answer: 'forty nine' })).status).toBe(401);
      const ok = await api('POST', '/api/auth/riddle', { answer: ' Fif ty ' });
      expect(ok).toMatchObject({ status: 200, body: { success: true, userType: 'guest' } });
    } finally {
      await bday.close();
    }
  });
});
