import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { io as connect, type Socket } from 'socket.io-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '#db/postgres.ts';
import { approved, meta, submitted } from '../../tests/support/fixtures.ts';
import { client, PASSWORDS, startTestServer, type TestServer } from '../../tests/support/server.ts';
import { caughtUp } from '../../tests/support/wait.ts';

let t: TestServer;
const sockets: Socket[] = [];
beforeAll(async () => {
  t = await startTestServer();
});
afterAll(async () => {
  for (const s of sockets) s.close();
  await t.close();
});

function open(url: string, auth: Record<string, unknown>, extra: Record<string, unknown> = {}): Promise<Socket> {
  const socket = connect(url, { auth, transports: ['websocket'], reconnection: false, ...extra });
  sockets.push(socket);
  return new Promise((resolve, reject) => {
    socket.once('connect', () => resolve(socket));
    socket.once('connect_error', reject);
  });
}
const closed = (socket: Socket) =>
  new Promise<string>((resolve) => socket.once('disconnect', (reason) => resolve(reason)));
const next = <T>(socket: Socket, event: string, ms = 10_000) =>
  new Promise<T>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no ${event}`)), ms);
    socket.once(event, (p: T) => {
      clearTimeout(timer);
      resolve(p);
    });
  });

async function approvedStory(api: ReturnType<typeof client>, admin: ReturnType<typeof client>, content = 'A story') {
  const created = await api('POST', '/api/stories', { content, authorName: 'Sam', email: 'sam@example.com' });
  await admin('PATCH', `/api/admin/stories/${created.body.id}`, { status: 'approved' });
  return created.body.id as number;
}

describe('socket security', () => {
  it('refuses an unexpected Origin', async () => {
    const token = await t.login('guest');
    await expect(open(t.url, { token }, { extraHeaders: { origin: 'https://evil.example' } })).rejects.toThrow();
    const ok = await open(t.url, { token }, { extraHeaders: { origin: t.url } });
    expect(ok.connected).toBe(true);
  });

  it('disconnects the sockets of a session that logs out', async () => {
    const token = await t.login('guest');
    const socket = await open(t.url, { token });
    const other = await open(t.url, { token: await t.login('guest') });
    const gone = closed(socket);
    await client(t.url, token)('POST', '/api/auth/logout');
    expect(await gone).toBe('io server disconnect');
    expect(other.connected).toBe(true);
    await expect(open(t.url, { token })).rejects.toThrow('Authentication required');
  });

  it('closes a socket that sends an oversized or malformed packet, and keeps serving', async () => {
    const big = await open(t.url, { token: await t.login('guest') });
    const bigClosed = closed(big);
    big.emit('hello', 'x'.repeat(100_000));
    expect(await bigClosed).toBe('transport close');

    const raw = await open(t.url, { token: await t.login('guest') });
    const rawClosed = closed(raw);
    // a frame that is not a socket.io packet at all
    (raw.io.engine as unknown as { write(data: string): void }).write('\u0000garbage{{{');
    expect(await rawClosed).toMatch(/close|error/);

    expect((await client(t.url)('GET', '/api/gate')).status).toBe(200);
    expect((await open(t.url, { token: await t.login('guest') })).connected).toBe(true);
  });
});

// Issue 28: screens put the arrival into their pages from the message, so it is the guest's page item
describe('an approval as guests hear it', () => {
  it("carries the item exactly as a guest's gallery page shows it, with no email, notes or visitor", async () => {
    const guest = client(t.url, await t.login('guest'));
    const admin = client(t.url, await t.login('admin'));
    const listening = await open(t.url, { token: await t.login('guest') });
    const content = 'Told to the whole room';
    const created = await guest('POST', '/api/stories', {
      content,
      authorName: 'Sam',
      email: 'sam.secret@example.com',
    });
    const added = next<{ day: string; item: { id: number } }>(listening, 'gallery:item-added');
    const notes = 'Admins only: check with Sam first';
    await admin('PATCH', `/api/admin/stories/${created.body.id}`, { status: 'approved', adminNotes: notes });
    const payload = await added;
    expect(payload.item.id).toBe(created.body.id);

    const page = (await guest('GET', '/api/gallery?page=1')).body as { day: string; items: Array<{ id: number }> };
    expect(payload.day).toBe(page.day);
    expect(payload.item).toEqual(page.items.find((item) => item.id === created.body.id));
    const text = JSON.stringify(payload);
    for (const secret of ['sam.secret@example.com', notes, 'email', 'adminNotes', 'visitor', 'address']) {
      expect(text).not.toContain(secret);
    }
  });
});

describe('catch-up after a reconnect', () => {
  it('sends what a socket missed since its position, in order, then goes on live', async () => {
    const guest = client(t.url, await t.login('guest'));
    const admin = client(t.url, await t.login('admin'));
    const token = await t.login('guest');
    const first = await open(t.url, { token });
    const liked = next<{ position: number }>(first, 'likes:changed');
    const a = await approvedStory(guest, admin, 'first');
    await guest('POST', `/api/stories/${a}/like`);
    const since = (await liked).position;
    first.close();

    // three changes while the phone is locked
    const b = await approvedStory(guest, admin, 'second');
    await guest('POST', `/api/stories/${b}/comments`, { authorName: 'Jo', content: 'Missed this' });
    await guest('POST', `/api/stories/${a}/like`);
    await caughtUp(t);

    const again = connect(t.url, { auth: { token, since }, transports: ['websocket'], reconnection: false });
    sockets.push(again);
    const batch = await next<{
      upTo: number;
      refetch: boolean;
      messages: Array<{ event: string; payload: { position: number } }>;
    }>(again, 'sync:batch');
    expect(batch.refetch).toBe(false);
    const events = batch.messages.map((m) => m.event);
    expect(events).toEqual(['gallery:item-added', 'comments:added', 'likes:changed']);
    const positions = batch.messages.map((m) => m.payload.position);
    expect(positions).toEqual([...positions].sort((x, y) => x - y));
    expect(positions[0]).toBeGreaterThan(since);
    expect(batch.upTo).toBeGreaterThanOrEqual(positions.at(-1)!);
    // guests never get admin-room messages, not even in a catch-up
    expect(events).not.toContain('admin:queue-changed');
  });

  it('tells a client that missed too much to refetch', async () => {
    const store = t.server.deps.store;
    const { rows } = await t.db.pool.query<{ seq: number }>(
      `SELECT coalesce(max(seq), 0)::int AS seq FROM event_chain`,
    );
    const since = rows[0]!.seq;
    // 600 approvals: 600 messages a guest would need, more than a catch-up carries
    for (let i = 0; i < 600; i++) {
      const id = 900_000 + i;
      await store.append(`artwork-${id}`, 0, [submitted(id), approved(id)], meta());
    }
    await caughtUp(t);
    await t.server.deps.realtime.reach(since + 1200);
    const batch = await syncFrom(since);
    expect(batch).toMatchObject({ refetch: true, messages: [] });
    expect(batch.upTo).toBeGreaterThanOrEqual(since + 1200);
  });
});

async function syncFrom(since: number, url = t.url) {
  const socket = connect(url, {
    auth: { token: await t.login('guest'), since },
    transports: ['websocket'],
    reconnection: false,
  });
  sockets.push(socket);
  return next<{ refetch: boolean; upTo: number; messages: unknown[] }>(socket, 'sync:batch');
}

describe('several API processes on one database', () => {
  const children: ChildProcess[] = [];
  afterAll(async () => {
    for (const c of children) c.kill('SIGTERM');
    await Promise.all(children.map((c) => new Promise((r) => (c.exitCode !== null ? r(null) : c.once('exit', r)))));
  });

  async function startProcess(role: 'api' | 'worker'): Promise<string> {
    const port = await freePort();
    const child = spawn(process.execPath, [path.resolve(import.meta.dirname, '../main.ts'), '--role', role], {
      env: {
        ...process.env,
        PORT: String(port),
        DATABASE_URL: t.db.url,
        DATA_DIR: t.dataDir,
        GALLERY_PASSWORD: PASSWORDS.guest,
        ADMIN_PASSWORD: PASSWORDS.admin,
        NODE_ENV: 'test',
        LOG_LEVEL: 'info',
      },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    children.push(child);
    await new Promise<void>((resolve, reject) => {
      child.once('exit', (code) => reject(new Error(`the API process exited (${code}) before it listened`)));
      child.stdout!.on('data', (d: Buffer) => /running|http:\/\//.test(d.toString()) && resolve());
    });
    return `http://127.0.0.1:${port}`;
  }

  it('delivers a change made through one process to a socket on another', async () => {
    const apiB = await startProcess('api');
    const login = await fetch(`${apiB}/api/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ password: PASSWORDS.guest }),
    });
    const { sessionToken } = (await login.json()) as { sessionToken: string };
    const onB = await open(apiB, { token: sessionToken });
    const guestA = client(t.url, await t.login('guest'));
    const adminA = client(t.url, await t.login('admin'));
    const added = next<{ item: { content: string } }>(onB, 'gallery:item-added');
    await approvedStory(guestA, adminA, 'through process A');
    expect((await added).item.content).toBe('through process A');
  });
  it('catches a client up from the outbox it shares, and tells it to refetch what was pruned', async () => {
    const guest = client(t.url, await t.login('guest'));
    await approvedStory(guest, client(t.url, await t.login('admin')), 'before the new process');
    await caughtUp(t);
    const { rows } = await t.db.pool.query<{ at: number }>(`SELECT catalog_position()::int AS at`);
    // a process that starts now holds nothing in memory from before: it reads the outbox
    const apiC = await startProcess('api');
    const kept = await syncFrom(rows[0]!.at - 3, apiC);
    expect(kept.refetch).toBe(false);
    expect(kept.messages.length).toBeGreaterThan(0);
    await t.db.pool.query(`UPDATE live_state SET pruned_through = $1`, [rows[0]!.at - 1]);
    const pruned = await syncFrom(rows[0]!.at - 3, apiC);
    expect(pruned).toMatchObject({ refetch: true, messages: [] });
  });
});
