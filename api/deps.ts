import type pg from 'pg';
import type { EventStore } from '#events/store.ts';
import type { SessionStore } from './auth/sessions.ts';
import type { Config } from './config.ts';
import type { AuditorPace } from './history/auditorPace.ts';
import type { JobQueue } from './jobs/jobQueue.ts';
import type { PersonalData } from './personalData.ts';
import type { Realtime } from './realtime/realtime.ts';
import type { ReactionCounter } from './show/reactions.ts';
import type { Clock } from './time.ts';
import type { BlobStore } from './storage/index.ts';

/** What routes and job handlers are given; built once in server.ts. */
export interface Deps {
  config: Config;
  /** the time, for what a route or handler decides on it */
  clock: Clock;
  pool: pg.Pool;
  /** the pool's database, for a thread that needs a connection of its own */
  databaseUrl: string;
  store: EventStore;
  sessions: SessionStore;
  personal: PersonalData;
  blobs: BlobStore;
  jobs: JobQueue;
  /** set once the HTTP server exists; routes only call it while serving */
  realtime: Realtime;
  /** the room's reaction taps, counted here and flushed to the log (started and stopped in server.ts) */
  reactions: ReactionCounter;
  /** guests' requests, and the auditor's reads keeping to their share while guests ask (decision 159) */
  auditorPace: AuditorPace;
}
