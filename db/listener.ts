import pg from 'pg';

export interface ListenerOptions {
  /** How to open a connection: the pool's own settings, on a connection of its own. */
  config: pg.ClientConfig;
  channels: readonly string[];
  onNotify(channel: string, payload: string | undefined): void;
  /**
   * Called after every (re)connection once LISTEN is in place: notifications sent while the
   * connection was down are lost, so the owner looks for what it missed (by position) here.
   */
  onListening?(): void;
  log?(message: string, error?: unknown): void;
}

const FIRST_RETRY_MS = 100;
const LONGEST_RETRY_MS = 5000;

/**
 * A LISTEN connection that survives: a terminated backend, a restarted server or a network error
 * closes it, and it comes back with growing pauses, then tells its owner to catch up. It sits on a
 * connection of its own rather than a pooled one, so a dead listener never holds a pool slot.
 */
export class PgListener {
  readonly #options: ListenerOptions;
  #client?: pg.Client;
  #retryMs = FIRST_RETRY_MS;
  #retry?: NodeJS.Timeout;
  #stopped = false;

  constructor(options: ListenerOptions) {
    this.#options = options;
  }

  /** Resolves once listening, or once the first attempt failed (it keeps trying in the background). */
  async start(): Promise<void> {
    await this.#connect();
  }

  async stop(): Promise<void> {
    this.#stopped = true;
    clearTimeout(this.#retry);
    const client = this.#client;
    this.#client = undefined;
    await client?.end().catch(() => {});
  }

  /**
   * Resolves true once every notification committed before the call has gone to `onNotify`; false
   * when not listening. PostgreSQL (14 and newer) signals listeners as a NOTIFY commits and sends a
   * listener its pending notifications before the answer to its next command, so the answer to a
   * command sent now comes after them. The command is LISTEN again, a no-op on a channel it listens to.
   */
  async caughtUp(): Promise<boolean> {
    const client = this.#client;
    const channel = this.#options.channels[0];
    if (!client || channel === undefined) return false;
    try {
      await client.query(`LISTEN ${pg.escapeIdentifier(channel)}`);
      return this.#client === client;
    } catch {
      return false;
    }
  }

  async #connect(): Promise<void> {
    if (this.#stopped) return;
    const client = new pg.Client(this.#options.config);
    let lost = false;
    const onLost = (error?: unknown) => {
      if (lost) return;
      lost = true;
      if (this.#client === client) this.#client = undefined;
      client.removeAllListeners('notification');
      client.end().catch(() => {});
      if (!this.#stopped) {
        this.#options.log?.('listen connection lost; reconnecting', error);
        this.#scheduleReconnect();
      }
    };
    client.on('error', onLost);
    client.on('end', () => onLost());
    client.on('notification', (n) => this.#options.onNotify(n.channel, n.payload));
    try {
      await client.connect();
      for (const channel of this.#options.channels) await client.query(`LISTEN ${pg.escapeIdentifier(channel)}`);
    } catch (error) {
      onLost(error);
      return;
    }
    if (this.#stopped) {
      await client.end().catch(() => {});
      return;
    }
    this.#client = client;
    this.#retryMs = FIRST_RETRY_MS;
    this.#options.onListening?.();
  }

  #scheduleReconnect() {
    if (this.#stopped || this.#retry) return;
    const delay = this.#retryMs;
    this.#retryMs = Math.min(this.#retryMs * 2, LONGEST_RETRY_MS);
    this.#retry = setTimeout(() => {
      this.#retry = undefined;
      void this.#connect();
    }, delay);
  }
}
