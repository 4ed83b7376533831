import { expect } from 'vitest';
import type { DomainEvent } from '#events/catalog.ts';
import type { Decider } from '#events/decider.ts';

/**
 * Given / when / then for a decider, in the Emmett style: the events a stream holds, a command, and
 * the events it decides or the error it raises. Pure: no database, no clock.
 */
export function spec<S, E extends DomainEvent, C>(decider: Decider<S, E, C>) {
  return {
    given(events: E[]) {
      const state = events.reduce(decider.evolve, decider.initial);
      const version = events.length;
      return {
        when(command: C) {
          const run = () => decider.decide(command, state, version);
          return {
            // given/when/then reads as the spec (STYLE.md); this object is never awaited
            // oxlint-disable-next-line unicorn/no-thenable
            then(expected: E[]) {
              expect(run()).toEqual(expected);
            },
            thenNothing() {
              expect(run()).toEqual([]);
            },
            thenFails(status: number, message: string | RegExp, details: Record<string, unknown> = {}) {
              let caught: unknown;
              try {
                run();
              } catch (error) {
                caught = error;
              }
              expect(caught, 'the command should have been refused').toBeDefined();
              expect(caught).toMatchObject({ status, details: expect.objectContaining(details) });
              expect((caught as Error).message).toMatch(message);
            },
          };
        },
      };
    },
  };
}
