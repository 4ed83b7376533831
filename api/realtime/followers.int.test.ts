import { io as connect, type Socket } from 'socket.io-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Presence } from '#contract/live.ts';
import {
  type SecondProcess,
  startSecondProcess,
  startTestServer,
  type TestServer,
} from '../../tests/support/server.ts';
import { waitFor } from '../../tests/support/wait.ts';

let t: TestServer;
let second: SecondProcess;
let secondUrl: string;
const sockets: Socket[] = [];
beforeAll(async () => {
  t = await startTestServer();
  // a second API process on the same database, as production runs several
  second = await startSecondProcess(t);
  secondUrl = second.url;
});
afterAll(async () => {
  for (const s of sockets) s.close();
  await second?.close();
  await t?.close();
});

/** A socket on `url` that keeps the last presence it was told. */
async function open(url: string, token: string) {
  const socket = connect(url, { auth: { token }, transports: ['websocket'], reconnection: false });
  sockets.push(socket);
  const seen: { presence?: Presence; count: number } = { count: 0 };
  socket.on('presence', (presence: Presence) => {
    seen.presence = presence;
    seen.count += 1;
  });
  await new Promise<void>((resolve, reject) => {
    socket.once('connect', () => resolve());
    socket.once('connect_error', reject);
  });
  return { socket, seen };
}

describe('screens following the show (CONTRACT §7, decision 036)', () => {
  it('counts the browsers that follow, across API processes, apart from everyone online', async () => {
    const presenter = await open(t.url, await t.login('admin'));
    // two browsers (each login without a cookie is one)
    const onFirst = await open(t.url, await t.login('guest'));
    const onSecond = await open(secondUrl, await t.login('guest'));
    const followers = () => presenter.seen.presence?.following;
    const online = () => presenter.seen.presence?.online;
    /** Waits for the presenter's next presence message, sent after what was just done. */
    const afterwards = async () => {
      const count = presenter.seen.count;
      await waitFor(async () => presenter.seen.count > count, 15_000);
    };

    await waitFor(async () => online() === 3, 10_000);
    expect(followers()).toBe(0);

    onFirst.socket.emit('show:follow', true);
    onSecond.socket.emit('show:follow', true);
    // at once, not at the next 10 s heartbeat: both processes counted at the same moment, and each
    // counts again when the other has written its row
    await waitFor(async () => followers() === 2, 5000);
    // saying it twice is still one screen
    onSecond.socket.emit('show:follow', true);
    await afterwards();
    expect(followers()).toBe(2);

    // one stops following (left /reveal), then the other leaves altogether
    onFirst.socket.emit('show:follow', false);
    await waitFor(async () => followers() === 1, 10_000);
    expect(online()).toBe(3);
    onSecond.socket.close();
    await waitFor(async () => followers() === 0 && online() === 2, 10_000);

    // anything but `true` is not following
    onFirst.socket.emit('show:follow', 'yes' as never);
    await afterwards();
    expect(followers()).toBe(0);
  });

  it('counts one browser once, however many sockets and processes it follows on (issue 20)', async () => {
    for (const s of sockets.splice(0)) s.close();
    const presenter = await open(t.url, await t.login('admin'));
    const followers = () => presenter.seen.presence?.following;
    const online = () => presenter.seen.presence?.online;
    await waitFor(async () => online() === 1 && followers() === 0, 15_000);
    const token = await t.login('guest');
    const screens = [await open(t.url, token), await open(t.url, token), await open(secondUrl, token)];
    for (const s of screens) s.socket.emit('show:follow', true);
    const other = await open(secondUrl, await t.login('guest'));
    other.socket.emit('show:follow', true);
    await waitFor(async () => online() === 5 && followers() === 2, 10_000);
    // one more screen, so that both processes count again with everything above written
    await open(t.url, await t.login('guest'));
    await waitFor(async () => online() === 6, 10_000);
    expect(followers()).toBe(2);
  });
});
