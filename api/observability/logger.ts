import { pino, type Logger } from 'pino';

/**
 * The one structured logger (JSON lines on stdout). main.ts sets its level from LOG_LEVEL; modules
 * import `log` and add their own fields with `log.child({ component })`.
 */
export const log: Logger = pino({
  level: process.env.LOG_LEVEL ?? (process.env.NODE_ENV === 'test' ? 'warn' : 'info'),
  base: { pid: process.pid, role: undefined },
  timestamp: pino.stdTimeFunctions.isoTime,
});

export function configureLogger(options: { level: string; role: string }): void {
  log.level = options.level;
  log.setBindings({ role: options.role });
}
