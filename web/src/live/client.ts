import type { QueryClient } from '@tanstack/react-query';
import type { Socket } from 'socket.io-client';
import {
  LIVE_EVENTS,
  type ClientToServerEvents,
  type HandshakeAuth,
  type ServerToClientEvents,
} from '../../../contract/live.ts';
import type { MineChanged } from '../../../contract/mine.ts';
import { LiveCache } from './cache.ts';
import { muralKeys } from '../queries/mural.ts';
import { followsShow, showFollowers } from './following.ts';
import { muralsOnPage } from './muralRoom.ts';
import { LiveSequence, type LiveMessage, type SyncBatch } from './sequence.ts';

export type ClientSocket = Socket<ServerToClientEvents, ClientToServerEvents>;
export type AuthCallback = (callback: (auth: Record<string, unknown>) => void) => void;

/** After the server closed the connection (a failed welcome, a restart), come back after this long. */
const COME_BACK_MS = [250, 1000, 3000, 5000];

export interface LiveHooks {
  /** After the cache has taken a message, in order, exactly once. */
  applied?(message: LiveMessage): void;
  /** After a welcome batch; `since` is the position the handshake asked from (none on a first connection). */
  batch?(batch: SyncBatch, since: number | undefined): void;
  resync?(): void;
  presence?(online: number): void;
  /** The projections (the worker) fell more than READY_MAX_LAG behind, or caught up again. */
  catchingUp?(catchingUp: boolean): void;
  connected?(connected: boolean): void;
  /** One of this browser's own items was decided or withdrawn (CONTRACT §11), after its list was marked stale. */
  mine?(change: MineChanged): void;
}

export interface LiveClient {
  readonly socket: ClientSocket;
  readonly sequence: LiveSequence;
  close(): void;
}

/**
 * The live connection without the browser around it: a socket, the sequence that orders what it
 * brings, and the cache patches. The web app opens it in connection.ts; the convergence test runs
 * this very code in Node against several server processes.
 *
 * `openSocket` is given the handshake's auth callback, re-read on every (re)connect: the token may
 * change, and `since` asks for what was missed.
 */
export function startLiveClient(
  openSocket: (auth: AuthCallback) => ClientSocket,
  queryClient: QueryClient,
  token: () => string | null | undefined,
  hooks: LiveHooks = {},
): LiveClient {
  const cache = new LiveCache(queryClient);
  const timers = new Set<ReturnType<typeof setTimeout>>();
  const apply = (message: LiveMessage) => {
    cache.apply(message);
    hooks.applied?.(message);
  };
  const refetchAll = () => cache.invalidate();
  // A gap: reconnect, and the server's batch brings what was missed since the last applied position.
  const resync = () => {
    hooks.resync?.();
    socket.disconnect();
    socket.connect();
  };
  const sequence = new LiveSequence({ apply, refetchAll, resync });

  // The `since` the current attempt sent; one without it refetches once the server says where it stands.
  let sentSince: number | undefined;
  // The mural's room (decision 116). `inMuralRoom`: the connection has been in it since the page's
  // mural snapshot was fetched, so a catch-up from `since` brings every stroke the snapshot lacks;
  // after any other join the snapshot is fetched again.
  const watchesMural = () => muralsOnPage.get() > 0;
  let sentMural = false;
  let askedMural = false;
  let inMuralRoom = false;
  const muralSnapshotAgain = () => void queryClient.invalidateQueries({ queryKey: muralKeys.all });
  const socket = openSocket((callback) => {
    const current = token();
    sentSince = sequence.connecting();
    sentMural = askedMural = watchesMural();
    const auth: HandshakeAuth = {
      ...(current ? { token: current } : {}),
      ...(sentSince !== undefined ? { since: sentSince } : {}),
      ...(sentMural ? { mural: true } : {}),
    };
    callback(auth as Record<string, unknown>);
  });

  for (const event of LIVE_EVENTS) {
    socket.on(event, (payload: LiveMessage['payload']) => sequence.receive({ event, payload } as LiveMessage));
  }
  let comeBack = 0;
  socket.on('sync:batch', (batch) => {
    comeBack = 0;
    sequence.batch(batch);
    // Without a `since` (a first connection), this batch only tells where the log stands: whatever
    // happened between loading the page's data and joining the live rooms is fetched again.
    if (sentSince === undefined) cache.invalidate({ refetchType: 'active' });
    else if (sentMural && !inMuralRoom && !batch.refetch) muralSnapshotAgain();
    inMuralRoom = sentMural;
    hooks.batch?.(batch, sentSince);
  });
  socket.on('presence', ({ online, following }) => {
    hooks.presence?.(online);
    showFollowers.set(following);
  });
  socket.on('projections:lag', ({ catchingUp }) => hooks.catchingUp?.(catchingUp));
  // the sender's own news stands outside the sequence: it only says to read "Your contributions" again
  socket.on('mine:changed', (change) => {
    void queryClient.invalidateQueries({ queryKey: ['mine'] });
    hooks.mine?.(change);
  });
  // whether the page follows the show: a new connection is a new socket to the server, so say it again
  const tellFollowing = () => {
    if (socket.connected) socket.emit('show:follow', followsShow.get());
  };
  const unfollow = followsShow.subscribe(tellFollowing);
  // a mural came on the page or went: join or leave its room; strokes come live from the join on, and
  // the snapshot is fetched after it so that none sent before is missed
  const tellMural = () => {
    const watching = watchesMural();
    if (!socket.connected || watching === askedMural) return;
    askedMural = watching;
    if (!watching) {
      inMuralRoom = false;
      socket.emit('mural:watch', false);
      return;
    }
    socket.emit('mural:watch', true, (upTo) => {
      if (!askedMural) return;
      sequence.joinedMural(upTo);
      inMuralRoom = true;
      muralSnapshotAgain();
    });
  };
  const unwatchMural = muralsOnPage.subscribe(tellMural);
  socket.on('connect', () => {
    if (followsShow.get()) tellFollowing();
    // a mural that came on the page during the handshake
    tellMural();
    hooks.connected?.(true);
  });
  const comeBackLater = () => {
    const timer = setTimeout(
      () => {
        timers.delete(timer);
        socket.connect();
      },
      COME_BACK_MS[Math.min(comeBack++, COME_BACK_MS.length - 1)],
    );
    timers.add(timer);
  };
  // socket.io does not reconnect after the server closed the connection; a visitor's screen should.
  // A session that has ended fails the next handshake, and then this stops.
  socket.on('disconnect', (reason) => {
    hooks.connected?.(false);
    showFollowers.set(null);
    if (reason === 'io server disconnect') comeBackLater();
  });
  // Nor after the server refused a handshake. A refusal that is no verdict on the session (the
  // server could not read it: its database is away) is tried again; 'Authentication required' is not.
  socket.on('connect_error', (error) => {
    const retry = (error as Error & { data?: { retry?: unknown } }).data?.retry === true;
    if (retry && !socket.active) comeBackLater();
  });

  return {
    socket,
    sequence,
    close() {
      for (const timer of timers) clearTimeout(timer);
      unfollow();
      unwatchMural();
      showFollowers.set(null);
      cache.close();
      socket.removeAllListeners();
      socket.disconnect();
    },
  };
}
