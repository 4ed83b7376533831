import { randomUUID } from 'node:crypto';
import type http from 'node:http';
import { createAdapter } from '@socket.io/postgres-adapter';
import type pg from 'pg';
import { Server, type Socket } from 'socket.io';
import type { EventStore } from '#events/store.ts';
import { SESSION_COOKIE } from '../auth/middleware.ts';
import type { Session, SessionStore } from '../auth/sessions.ts';
import { messagesFor } from './changes.ts';
import { ROOMS, ROOM_OF, sessionRoom, type Message, type ServerToClientEvents } from './events.ts';

interface SocketData {
  session: Session;
}
type IoServer = Server<Record<string, never>, ServerToClientEvents, Record<string, never>, SocketData>;
type IoSocket = Socket<Record<string, never>, ServerToClientEvents, Record<string, never>, SocketData>;

/** More than this many missed events and a reconnecting client is told to refetch instead. */
const CATCH_UP_LIMIT = 500;
const PRESENCE_HEARTBEAT_MS = 10_000;

function cookieValue(header: string | undefined, name: string): string | undefined {
  for (const part of header?.split(';') ?? []) {
    const [k, ...v] = part.trim().split('=');
    if (k === name) return decodeURIComponent(v.join('='));
  }
  return undefined;
}

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

/**
 * The one place socket.io is used. Through the PostgreSQL adapter, a message sent by any process
 * (an API node or a worker) reaches the sockets of every API process.
 */
export class Realtime {
  readonly io: IoServer;
  readonly #pool: pg.Pool;
  readonly #processId = randomUUID();
  #presenceTimer?: NodeJS.Timeout;
  #presenceDue?: NodeJS.Timeout;

  constructor(pool: pg.Pool, store: EventStore, sessions: SessionStore, httpServer?: http.Server) {
    this.#pool = pool;
    this.io = new Server(httpServer, {
      serveClient: false,
      adapter: createAdapter(pool),
      // clients send nothing but the handshake: anything big is an attack, and closes the socket
      maxHttpBufferSize: 16 * 1024,
      allowRequest: (req, callback) => callback(null, sameOrigin(req)),
    });
    if (!httpServer) return;
    this.io.use(async (socket, next) => {
      const auth = socket.handshake.auth as { token?: unknown };
      const token =
        typeof auth.token === 'string' && auth.token
          ? auth.token
          : cookieValue(socket.request.headers.cookie, SESSION_COOKIE);
      const session = await sessions.find(token).catch(() => undefined);
      if (!session) return next(new Error('Authentication required'));
      socket.data.session = session;
      next();
    });
    this.io.on('connection', (socket) => {
      void this.#welcome(socket, store).catch(() => socket.disconnect(true));
      socket.on('disconnect', () => this.#presenceChanged());
    });
    this.#presenceTimer = setInterval(() => this.#presenceChanged(), PRESENCE_HEARTBEAT_MS);
  }

  /**
   * Joins the socket's rooms first, then sends what it missed since `auth.since`. Anything published
   * meanwhile is either in that batch (position ≤ upTo, which the client drops when it comes live)
   * or comes live after it: nothing missed, nothing applied twice.
   */
  async #welcome(socket: IoSocket, store: EventStore) {
    const { session } = socket.data;
    await socket.join([ROOMS.everyone, sessionRoom(session.tokenHash)]);
    if (session.role === 'admin') await socket.join(ROOMS.admins);
    this.#presenceChanged();
    const { rows } = await this.#pool.query<{ seq: number | null }>(
      `SELECT c.seq FROM projection_checkpoints p JOIN event_chain c ON c.position = p.position WHERE p.name = 'catalog'`,
    );
    const upTo = rows[0]?.seq ?? 0;
    const since = Number((socket.handshake.auth as { since?: unknown }).since);
    // a first connection learns where the log stands, so that its next reconnect can catch up from there
    if (!Number.isSafeInteger(since) || since < 0) {
      socket.emit('sync:batch', { upTo, refetch: false, messages: [] });
      return;
    }
    if (upTo - since > CATCH_UP_LIMIT) {
      socket.emit('sync:batch', { upTo, refetch: true, messages: [] });
      return;
    }
    const missed = upTo > since ? await store.readSealed(since, upTo, CATCH_UP_LIMIT) : [];
    const admin = session.role === 'admin';
    const messages = (await messagesFor(this.#pool, missed)).filter((m) => admin || ROOM_OF[m.event] !== ROOMS.admins);
    socket.emit('sync:batch', { upTo, refetch: false, messages });
  }

  send(message: Message) {
    const room = this.io.to(ROOM_OF[message.event]) as unknown as { emit(event: string, payload: unknown): boolean };
    room.emit(message.event, message.payload);
  }

  /** Ends the live connection of a session that logged out, on every process. */
  disconnectSession(tokenHash: string) {
    this.io.in(sessionRoom(tokenHash)).disconnectSockets(true);
  }

  /** Records this process's count, then tells everyone the total across processes (debounced). */
  #presenceChanged() {
    if (this.#presenceDue) return;
    this.#presenceDue = setTimeout(async () => {
      this.#presenceDue = undefined;
      try {
        const { rows } = await this.#pool.query<{ online: number }>(
          `WITH mine AS (
             INSERT INTO presence (process_id, online, seen_at) VALUES ($1, $2, now())
             ON CONFLICT (process_id) DO UPDATE SET online = $2, seen_at = now())
           SELECT ($2 + coalesce(sum(online), 0))::int AS online FROM presence
           WHERE process_id <> $1 AND seen_at > now() - interval '30 seconds'`,
          [this.#processId, this.io.engine?.clientsCount ?? 0],
        );
        this.send({ event: 'presence', payload: { online: rows[0]!.online } });
      } catch {
        // presence is a nicety: a failed update waits for the next change or heartbeat
      }
    }, 250);
  }

  async close() {
    clearInterval(this.#presenceTimer);
    clearTimeout(this.#presenceDue);
    if (this.io.engine) {
      await this.#pool.query(`DELETE FROM presence WHERE process_id = $1`, [this.#processId]).catch(() => {});
      await this.io.close();
    } else {
      await (this.io.of('/').adapter as { close?: () => Promise<void> | void }).close?.();
    }
  }
}
