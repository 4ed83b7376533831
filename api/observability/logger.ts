import { pino, type Logger } from 'pino';

interface SerializedError {
  type?: string;
  message?: string;
  stack?: string;
  code?: unknown;
}

/**
 * An error as pino has serialized it (message and stack with their causes), cut down to what helps
 * and says nothing about a person: its other fields go, since a PostgreSQL error's `detail` quotes the
 * row it refused (an email in a unique violation, say).
 */
export function errorFields(serialized: unknown): unknown {
  if (typeof serialized !== 'object' || serialized === null || !('message' in serialized)) return serialized;
  const { type, message, stack, code } = serialized as SerializedError;
  return { type, message, stack, ...(code === undefined ? {} : { code }) };
}

/** How an error is logged under `err`, on every logger but pino-http's (which gets it serialized). */
export const serializeError = (error: unknown): unknown => errorFields(pino.stdSerializers.err(error as Error));

/** Which part of the program this process runs, on every line: set once at start. */
let role: string | undefined;

/**
 * The one structured logger (JSON lines on stdout). main.ts sets its level from LOG_LEVEL; modules
 * import `log` and add their own fields with `log.child({ component })`, and pass such a child to the
 * lower layers (their `Log`, db/log.ts). An error goes under `err`, with its stack.
 */
export const log: Logger = pino({
  level: process.env.LOG_LEVEL ?? (process.env.NODE_ENV === 'test' ? 'warn' : 'info'),
  base: { pid: process.pid },
  // a mixin, not a binding: children made before configureLogger (pino-http's, at import) get it too
  mixin: () => (role ? { role } : {}),
  timestamp: pino.stdTimeFunctions.isoTime,
  serializers: { err: serializeError },
});

export function configureLogger(options: { level: string; role: string }): void {
  log.level = options.level;
  role = options.role;
}
