import { z } from 'zod';

type Upcaster = (data: Record<string, unknown>) => Record<string, unknown>;

export interface EventDefinition<T extends string = string, S extends z.ZodType = z.ZodType> {
  type: T;
  /** The schema version new events are written with. */
  version: number;
  schema: S;
  /** upcasters[n] turns data written at version n into version n + 1. */
  upcasters: Record<number, Upcaster>;
  /** schemas of older versions, for writing a log as it was before (tests and benches of upcasting) */
  legacy: Record<number, z.ZodType>;
}

export function defineEvent<const T extends string, S extends z.ZodType>(
  type: T,
  schema: S,
  options: { version?: number; upcasters?: Record<number, Upcaster>; legacy?: Record<number, z.ZodType> } = {},
): EventDefinition<T, S> {
  return {
    type,
    schema,
    version: options.version ?? 1,
    upcasters: options.upcasters ?? {},
    legacy: options.legacy ?? {},
  };
}

export type EventOf<D> = D extends EventDefinition<infer T, infer S> ? { type: T; data: z.output<S> } : never;

export class UnknownEventType extends Error {
  constructor(type: string) {
    super(`unknown event type ${type}`);
  }
}

/** Looks event definitions up by type; old schema versions are upcast on read, never rewritten. */
export class EventRegistry<D extends EventDefinition> {
  readonly #byType = new Map<string, D>();

  constructor(definitions: readonly D[]) {
    for (const d of definitions) {
      if (this.#byType.has(d.type)) throw new Error(`event type ${d.type} defined twice`);
      this.#byType.set(d.type, d);
    }
  }

  definition(type: string): D {
    const d = this.#byType.get(type);
    if (!d) throw new UnknownEventType(type);
    return d;
  }

  /**
   * Validates data about to be written; returns it with the schema version to store. An older
   * `schemaVersion` writes data as the log held it before (a legacy schema must exist for it).
   */
  prepare(type: string, data: unknown, schemaVersion?: number): { data: unknown; schemaVersion: number } {
    const d = this.definition(type);
    if (schemaVersion === undefined || schemaVersion === d.version) {
      return { data: d.schema.parse(data), schemaVersion: d.version };
    }
    const legacy = d.legacy[schemaVersion];
    if (!legacy) throw new Error(`${type} has no schema v${schemaVersion} to write`);
    return { data: legacy.parse(data), schemaVersion };
  }

  decode(type: string, schemaVersion: number, data: unknown): EventOf<D> {
    const d = this.definition(type);
    let current = data as Record<string, unknown>;
    for (let v = schemaVersion; v < d.version; v++) {
      const up = d.upcasters[v];
      if (!up) throw new Error(`no upcaster for ${type} v${v}`);
      current = up(current);
    }
    return { type: d.type, data: d.schema.parse(current) } as EventOf<D>;
  }
}
