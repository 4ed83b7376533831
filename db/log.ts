/**
 * What the lower layers (db, events, projections) need of a logger: a way to report a failure they
 * recover from. The API passes its pino logger as a child with a `component` field; pino's `Logger`
 * fits this as it is, so these layers never import the API or pick a logging library themselves.
 */
export interface Log {
  error(fields: { err?: unknown; [key: string]: unknown }, message: string): void;
  warn(fields: { err?: unknown; [key: string]: unknown }, message: string): void;
}
