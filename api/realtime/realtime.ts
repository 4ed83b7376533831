import type http from 'node:http';
import { createAdapter } from '@socket.io/postgres-adapter';
import type pg from 'pg';
import { Server } from 'socket.io';
import { SESSION_COOKIE } from '../auth/middleware.ts';
import type { Session, SessionStore } from '../auth/sessions.ts';
import { ROOMS, ROOM_OF, type Payload, type ServerEvent, type ServerToClientEvents } from './events.ts';

interface SocketData {
  session: Session;
}

function cookieValue(header: string | undefined, name: string): string | undefined {
  for (const part of header?.split(';') ?? []) {
    const [k, ...v] = part.trim().split('=');
    if (k === name) return decodeURIComponent(v.join('='));
  }
  return undefined;
}

/**
 * The one place socket.io is used. Through the PostgreSQL adapter, an event sent by any process
 * (an API node or a worker) reaches the sockets of every API process.
 */
export class Realtime {
  readonly io: Server<Record<string, never>, ServerToClientEvents, Record<string, never>, SocketData>;

  constructor(pool: pg.Pool, sessions: SessionStore, httpServer?: http.Server) {
    this.io = new Server(httpServer, { serveClient: false, adapter: createAdapter(pool) });
    if (!httpServer) return;
    this.io.use(async (socket, next) => {
      const auth = socket.handshake.auth as { token?: unknown };
      const token = typeof auth.token === 'string' && auth.token
        ? auth.token
        : cookieValue(socket.request.headers.cookie, SESSION_COOKIE);
      const session = await sessions.find(token).catch(() => undefined);
      if (!session) return next(new Error('Authentication required'));
      socket.data.session = session;
      next();
    });
    this.io.on('connection', (socket) => {
      void socket.join(ROOMS.everyone);
      if (socket.data.session.role === 'admin') void socket.join(ROOMS.admins);
      this.#broadcastPresence();
      socket.on('disconnect', () => this.#broadcastPresence());
    });
  }

  send<E extends ServerEvent>(event: E, payload: Payload<E>) {
    const emit = this.io.to(ROOM_OF[event]).emit as (e: E, p: Payload<E>) => boolean;
    emit.call(this.io.to(ROOM_OF[event]), event, payload);
  }

  #broadcastPresence() {
    this.send('presence', { online: this.io.engine?.clientsCount ?? 0 });
  }

  async close() {
    if (this.io.engine) await this.io.close();
    else await (this.io.of('/').adapter as { close?: () => Promise<void> | void }).close?.();
  }
}
