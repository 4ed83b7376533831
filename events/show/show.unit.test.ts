import { describe, expect, it } from 'vitest';
import { DomainError } from '../errors.ts';
import { showDecider, type Show, type ShowCommand } from './show.ts';

const a = { kind: 'story' as const, id: 1 };
const b = { kind: 'artwork' as const, id: 2 };
const c = { kind: 'media' as const, id: 3 };
const d = { kind: 'story' as const, id: 4 };

/** Decides each command on the state the ones before it left. */
function run(commands: ShowCommand[], show: Show = showDecider.initial) {
  const types: string[][] = [];
  for (const command of commands) {
    const events = showDecider.decide(command, show);
    types.push(events.map((e) => e.type));
    show = events.reduce(showDecider.evolve, show);
  }
  return { show, types };
}

const refused = (commands: ShowCommand[], status: number) => {
  try {
    run(commands);
  } catch (error) {
    expect(error).toBeInstanceOf(DomainError);
    expect((error as DomainError).status).toBe(status);
    return;
  }
  throw new Error('not refused');
};

describe('the show decider', () => {
  it('moves once when next is pressed twice from the same item (issue 21)', () => {
    const { show, types } = run([
      { type: 'start', items: [a, b, c] },
      { type: 'next', from: 0 },
      { type: 'next', from: 0 },
      { type: 'prev', from: 1 },
      { type: 'prev', from: 1 },
    ]);
    expect(types).toEqual([['ShowStarted'], ['ShowMoved'], [], ['ShowMoved'], []]);
    expect(show.index).toBe(0);
    expect(run([{ type: 'start', items: [a, b, c] }, { type: 'next' }, { type: 'next' }]).show.index).toBe(2);
  });

  it('refuses everything but start without a show, and a second start', () => {
    for (const type of ['next', 'prev', 'pause', 'resume', 'stop'] as const) refused([{ type }], 409);
    refused([{ type: 'goto', item: a, approved: true }], 409);
    refused([{ type: 'start', items: [] }], 409);
    refused(
      [
        { type: 'start', items: [a] },
        { type: 'start', items: [a] },
      ],
      409,
    );
  });

  it('keeps moves inside the list and writes nothing for a move that goes nowhere', () => {
    const { show, types } = run([
      { type: 'start', items: [a, b] },
      { type: 'prev' },
      { type: 'next' },
      { type: 'next' },
      { type: 'pause' },
      { type: 'pause' },
      { type: 'resume' },
      { type: 'resume' },
    ]);
    expect(types).toEqual([['ShowStarted'], [], ['ShowMoved'], [], ['ShowPaused'], [], ['ShowResumed'], []]);
    expect(show).toEqual({ state: 'running', items: [a, b], index: 1 });
  });

  it('queues next, moving up an item still to come and showing again one already shown', () => {
    const start: ShowCommand = { type: 'start', items: [a, b, c] };
    expect(run([start, { type: 'queue', item: c, approved: true }]).show.items).toEqual([a, c, b]);
    expect(run([start, { type: 'queue', item: b, approved: true }]).types[1]).toEqual([]);
    expect(run([start, { type: 'next' }, { type: 'queue', item: a, approved: true }]).show.items).toEqual([a, b, a, c]);
    expect(run([start, { type: 'queue', item: d, approved: true }]).show.items).toEqual([a, d, b, c]);
    refused([start, { type: 'queue', item: d, approved: false }], 404);
  });

  it('goes to a held item, or adds an approved one next and shows it', () => {
    const start: ShowCommand = { type: 'start', items: [a, b, c] };
    expect(run([start, { type: 'goto', item: c, approved: false }]).show.index).toBe(2);
    const added = run([start, { type: 'goto', item: d, approved: true }]);
    expect(added.types[1]).toEqual(['ShowItemQueued', 'ShowMoved']);
    expect(added.show).toEqual({ state: 'running', items: [a, d, b, c], index: 1 });
    refused([start, { type: 'goto', item: d, approved: false }], 404);
  });

  it('puts the mural up after the current item, and next moves on to what was next', () => {
    const mural = { kind: 'mural' as const, id: 1 };
    const shown = run([
      { type: 'start', items: [a, b, c] },
      { type: 'goto', item: mural, approved: true },
      { type: 'next' },
    ]);
    expect(shown.types.slice(1)).toEqual([['ShowItemQueued', 'ShowMoved'], ['ShowMoved']]);
    expect(shown.show).toEqual({ state: 'running', items: [a, mural, b, c], index: 2 });
    // shown again later, the show goes back to it rather than holding it twice
    const again = run([{ type: 'goto', item: mural, approved: true }], shown.show);
    expect(again.show).toEqual({ state: 'running', items: [a, mural, b, c], index: 1 });
    refused([{ type: 'goto', item: mural, approved: true }], 409);
  });

  it('stops from paused, and a new show starts afresh', () => {
    const { show } = run([
      { type: 'start', items: [a, b] },
      { type: 'next' },
      { type: 'pause' },
      { type: 'stop' },
      { type: 'start', items: [c] },
    ]);
    expect(show).toEqual({ state: 'running', items: [c], index: 0 });
  });
});
