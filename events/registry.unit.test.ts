import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { EventRegistry, UnknownEventType, defineEvent } from './registry.ts';

const Renamed = defineEvent('ThingRenamed', z.object({ id: z.number(), name: z.string(), by: z.string() }), {
  version: 3,
  upcasters: {
    1: (d) => ({ id: d.id, name: d.title }),
    2: (d) => ({ ...d, by: 'unknown' }),
  },
});
const registry = new EventRegistry([Renamed]);

describe('EventRegistry', () => {
  it('upcasts old data step by step when reading, leaving what was stored alone', () => {
    const stored = { id: 1, title: 'Old' };
    expect(registry.decode('ThingRenamed', 1, stored).data).toEqual({ id: 1, name: 'Old', by: 'unknown' });
    expect(stored).toEqual({ id: 1, title: 'Old' });
  });

  it('reads current data as is and writes with the current version', () => {
    expect(registry.decode('ThingRenamed', 3, { id: 2, name: 'New', by: 'me' }).data.name).toBe('New');
    expect(registry.prepare('ThingRenamed', { id: 2, name: 'New', by: 'me' }).schemaVersion).toBe(3);
  });

  it('refuses data that does not match the schema, and unknown types', () => {
    expect(() => registry.prepare('ThingRenamed', { id: 'x' })).toThrow();
    expect(() => registry.decode('Nope', 1, {})).toThrow(UnknownEventType);
  });
});
