import { randomUUID } from 'node:crypto';
import type http from 'node:http';
import { createAdapter } from '@socket.io/postgres-adapter';
import { parseCookie } from 'cookie';
import pg from 'pg';
import { Server, type Socket } from 'socket.io';
import {
  ROOMS,
  type ClientToServerEvents,
  type HandshakeAuth,
  type LiveMessage,
  type ProjectionLagStatus,
  type Room,
  type ServerToClientEvents,
} from '#contract/live.ts';
import { mineRoom } from '#contract/mine.ts';
import { SESSION_COOKIE } from '../auth/middleware.ts';
import { log } from '../observability/logger.ts';
import type { Session, SessionStore } from '../auth/sessions.ts';
import { liveDeliveries, liveMessagesSent, liveWelcomes, measureLive } from './liveMetrics.ts';
import { KnownPosition } from './knownPosition.ts';
import { LiveTail, type OutboxMessage } from './liveTail.ts';

interface SocketData {
  session: Session;
}
/** Between API processes: one has written its presence counts, and the others count again. */
interface ServerSideEvents {
  'presence:changed': () => void;
}
type IoServer = Server<ClientToServerEvents, ServerToClientEvents, ServerSideEvents, SocketData>;
type IoSocket = Socket<ClientToServerEvents, ServerToClientEvents, ServerSideEvents, SocketData>;

const PRESENCE_HEARTBEAT_MS = 10_000;
/** A client ahead of this process (it was on another one) waits this long for this one to catch up. */
const REACH_TIMEOUT_MS = 2000;
const WELCOME_ROUNDS = 20;

export const sessionRoom = (tokenHash: string) => `session:${tokenHash}`;
/** This process's sockets that follow the show: counted, never sent to (live messages go to everyone). */
const FOLLOWERS_ROOM = 'show-followers';

/**
 * Browsers must come from this site: an Origin whose host is neither the request's Host nor the
 * proxy's X-Forwarded-Host is refused. (A browser cannot forge either header cross-site.)
 */
function sameOrigin(req: http.IncomingMessage): boolean {
  const origin = req.headers.origin;
  if (!origin) return true;
  try {
    const host = new URL(origin).host;
    return host === req.headers.host || host === req.headers['x-forwarded-host'];
  } catch {
    return false;
  }
}

function tokenOf(socket: IoSocket): string | undefined {
  const { token } = socket.handshake.auth as HandshakeAuth;
  if (typeof token === 'string' && token) return token;
  const header = socket.request.headers.cookie;
  return header ? parseCookie(header)[SESSION_COOKIE] : undefined;
}

/**
 * The adapter's LISTEN connection, on a connection of its own with an error handler: the adapter
 * itself attaches none, so a terminated backend would otherwise end the process. When the
 * connection ends, the adapter opens a new one and listens again.
 */
function adapterPool(pool: pg.Pool): pg.Pool {
  const connect = async () => {
    const client = new pg.Client(pool.options);
    client.on('error', (error) =>
      log.warn({ component: 'socket.io adapter', reason: error.message }, 'connection lost'),
    );
    await client.connect();
    return Object.assign(client, { release: () => void client.end().catch(() => {}) });
  };
  return { connect, query: pool.query.bind(pool) } as unknown as pg.Pool;
}

/**
 * The one place socket.io is used. Live messages come from the outbox, which every API process
 * tails itself (docs/decisions/011); the PostgreSQL adapter carries only what is not in the log:
 * presence (who is online, and who follows the show), and disconnecting a session that logged out
 * on another process.
 */
export class Realtime {
  readonly io: IoServer;
  readonly #pool: pg.Pool;
  readonly #processId = randomUUID();
  readonly #tail?: LiveTail;
  /** Where this process knows the catalog stands: the gallery's position without a query (decision 028). */
  readonly known = new KnownPosition(() => this.position);
  #presenceTimer?: NodeJS.Timeout;
  #presenceDue?: NodeJS.Timeout;
  #presenceTellOthers = false;
  #unmeasure?: () => void;
  /** how far the projections are behind, as this process last measured (set by server.ts) */
  lagStatus: () => ProjectionLagStatus = () => ({ behind: 0, catchingUp: false });

  constructor(pool: pg.Pool, sessions: SessionStore, httpServer?: http.Server) {
    this.#pool = pool;
    this.io = new Server(httpServer, {
      serveClient: false,
      adapter: createAdapter(adapterPool(pool), {
        errorHandler: (error) => log.error({ component: 'socket.io adapter', err: error }, 'adapter failed'),
      }),
      // clients send nothing but the handshake: anything big is an attack, and closes the socket
      maxHttpBufferSize: 16 * 1024,
      allowRequest: (req, callback) => callback(null, sameOrigin(req)),
    });
    if (!httpServer) return;
    this.#tail = new LiveTail(pool, (messages) => this.#broadcast(messages));
    this.#unmeasure = measureLive({ sockets: () => this.io.of('/').sockets.size, position: () => this.position });
    this.io.use((socket, next) => {
      let token: string | undefined;
      try {
        token = tokenOf(socket);
      } catch {
        // a cookie header that cannot be read is no session
      }
      sessions.find(token).then(
        (session) => {
          if (!session) return next(new Error('Authentication required'));
          socket.data.session = session;
          next();
        },
        () => {
          // the database is away: not a refusal, and the client comes back by itself (web/src/live/client.ts)
          next(Object.assign(new Error('Live updates are unavailable right now'), { data: { retry: true } }));
        },
      );
    });
    this.io.on('connection', (socket) => {
      this.#welcome(socket).then(
        () => {
          if (socket.connected) socket.emit('projections:lag', this.lagStatus());
        },
        (error) => {
          liveWelcomes.inc({ result: 'failed' });
          log.warn({ component: 'live', reason: (error as Error).message }, 'welcome failed');
          // the client comes back by itself with the same `since` (web/src/live/connection.ts)
          socket.disconnect(true);
        },
      );
      // a /reveal screen says it follows the show, on every connection; the presenter counts them
      socket.on('show:follow', (following) => {
        if (following === true) void socket.join(FOLLOWERS_ROOM);
        else void socket.leave(FOLLOWERS_ROOM);
        this.#presenceChanged();
      });
      // a screen that shows the mural, and only such a screen, is sent its strokes (decision 116)
      socket.on('mural:watch', (watching, joined) => {
        if (watching === true) void socket.join(ROOMS.mural);
        else void socket.leave(ROOMS.mural);
        if (typeof joined === 'function') joined(this.position);
      });
      socket.on('disconnect', () => this.#presenceChanged());
    });
    this.io.on('presence:changed', () => this.#presenceChanged(false));
    this.#presenceTimer = setInterval(() => this.#presenceChanged(false), PRESENCE_HEARTBEAT_MS);
  }

  /** Starts following the outbox; call before the HTTP server accepts sockets. */
  async start() {
    await this.#tail?.start();
  }

  /** Where this process's live delivery stands: every message up to here has been sent. */
  get position(): number {
    return this.#tail?.position ?? 0;
  }

  /** Waits until this process has sent every message up to `position` (read-your-writes, tests). */
  reach(position: number, timeoutMs = 5000): Promise<boolean> {
    return this.#tail?.reach(position, timeoutMs) ?? Promise.resolve(false);
  }

  #broadcast(messages: OutboxMessage[]) {
    const local = this.io.local as unknown as { to(room: string): { emit(event: string, payload: unknown): void } };
    const rooms = this.io.of('/').adapter.rooms;
    for (const { room, message } of messages) {
      local.to(room).emit(message.event, message.payload);
      liveMessagesSent.inc({ event: message.event });
      liveDeliveries.inc(rooms.get(room)?.size ?? 0);
    }
  }

  /**
   * Sends the socket what it missed since `auth.since`, then joins it to its rooms in the same tick
   * as the tail's position is read: everything up to that position is in the batch, everything after
   * it comes live. Nothing missed, nothing twice, and the order is the log's.
   */
  async #welcome(socket: IoSocket) {
    const tail = this.#tail!;
    const { session } = socket.data;
    const auth = socket.handshake.auth as HandshakeAuth;
    const since = Number(auth.since);
    const rooms: Room[] = [
      ROOMS.everyone,
      ...(session.role === 'admin' ? [ROOMS.admins] : []),
      ...(auth.mural === true ? [ROOMS.mural] : []),
    ];
    const join = () => {
      void socket.join([
        ...rooms,
        sessionRoom(session.tokenHash),
        // the browser's own news (`mine:changed`), by its visitor id, which never leaves the server
        mineRoom(session.visitorId),
      ]);
      this.#presenceChanged();
    };
    // a first connection learns where the log stands, so that its next reconnect can catch up from there
    if (!Number.isSafeInteger(since) || since < 0) {
      join();
      socket.emit('sync:batch', { upTo: tail.position, refetch: false, messages: [] });
      liveWelcomes.inc({ result: 'first' });
      return;
    }
    if (since > tail.position) await tail.reach(since, REACH_TIMEOUT_MS);
    let from = since;
    const messages: LiveMessage[] = [];
    for (let round = 0; round < WELCOME_ROUNDS && from >= since; round++) {
      if (!socket.connected) return;
      const upTo = tail.position;
      if (upTo === from) {
        join();
        socket.emit('sync:batch', { upTo, refetch: false, messages });
        liveWelcomes.inc({ result: 'caught_up' });
        return;
      }
      if (upTo < from) break; // this process is still behind the client: refetch below
      const missed = await tail.missed(from, upTo, rooms);
      if (missed === 'refetch') break;
      messages.push(...missed);
      from = upTo;
    }
    if (!socket.connected) return;
    join();
    socket.emit('sync:batch', { upTo: tail.position, refetch: true, messages: [] });
    liveWelcomes.inc({ result: 'refetch' });
  }

  /** Tells this process's screens that the projections fell behind or caught up (each process tells its own). */
  tellLag(status: ProjectionLagStatus) {
    this.io.local.to(ROOMS.everyone).emit('projections:lag', status);
  }

  /**
   * This process's sockets that have a session (a refused handshake can leave a connection open
   * below socket.io: it is no one viewing), and the browsers that follow the show, each once
   * however many sockets it follows on (issue 20).
   */
  #localPresence(): { online: number; followers: string[] } {
    const namespace = this.io.of('/');
    const followers = new Set<string>();
    for (const id of namespace.adapter.rooms.get(FOLLOWERS_ROOM) ?? []) {
      const visitorId = namespace.sockets.get(id)?.data.session?.visitorId;
      if (visitorId) followers.add(visitorId);
    }
    return { online: namespace.sockets.size, followers: [...followers] };
  }

  /** Ends the live connection of a session that logged out, on every process. */
  disconnectSession(tokenHash: string) {
    this.io.in(sessionRoom(tokenHash)).disconnectSockets(true);
  }

  /**
   * Records this process's counts, then tells everyone the totals across processes (debounced). A
   * change here also makes the other processes count again: one of them may have counted at the same
   * moment, before this row was written, and sent a total without it.
   */
  #presenceChanged(tellOthers = true) {
    this.#presenceTellOthers ||= tellOthers;
    if (this.#presenceDue) return;
    this.#presenceDue = setTimeout(() => {
      this.#presenceDue = undefined;
      const tell = this.#presenceTellOthers;
      this.#presenceTellOthers = false;
      void this.#countPresence(tell);
    }, 250);
  }

  /** Never rejects: presence is a nicety, and a failed update waits for the next change or heartbeat. */
  async #countPresence(tell: boolean) {
    try {
      const { online, followers } = this.#localPresence();
      const { rows } = await this.#pool.query<{ online: number; following: number }>(
        `WITH mine AS (
             INSERT INTO presence (process_id, online, following, followers, seen_at) VALUES ($1, $2, $3, $4, now())
             ON CONFLICT (process_id) DO UPDATE SET online = $2, following = $3, followers = $4, seen_at = now()),
           others AS (SELECT * FROM presence WHERE process_id <> $1 AND seen_at > now() - interval '30 seconds')
           SELECT ($2 + coalesce((SELECT sum(online) FROM others), 0))::int AS online,
             (SELECT count(DISTINCT f) FROM (SELECT unnest($4::text[]) AS f
                UNION ALL SELECT unnest(followers) FROM others) AS every)::int AS following`,
        [this.#processId, online, followers.length, followers],
      );
      this.io.to(ROOMS.everyone).emit('presence', rows[0]!);
      if (tell) this.io.serverSideEmit('presence:changed');
    } catch {
      // presence is a nicety: a failed update waits for the next change or heartbeat
    }
  }

  async close() {
    this.#unmeasure?.();
    clearInterval(this.#presenceTimer);
    clearTimeout(this.#presenceDue);
    await this.#tail?.stop();
    if (this.io.engine) {
      await this.#pool.query(`DELETE FROM presence WHERE process_id = $1`, [this.#processId]).catch(() => {});
      await this.io.close();
    } else {
      await (this.io.of('/').adapter as { close?: () => Promise<void> | void }).close?.();
    }
  }
}
