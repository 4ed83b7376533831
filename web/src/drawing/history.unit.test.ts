import { describe, expect, it } from 'vitest';
import { canRedo, canUndo, current, record, redo, startHistory, undo } from './history.ts';

const BLANK = 'blank';

describe('drawing history (spec §4)', () => {
  it('starts with the blank canvas, which cannot be undone', () => {
    const history = startHistory(BLANK);
    expect(history.past).toEqual([BLANK]);
    expect(current(history)).toBe(BLANK);
    expect(canUndo(history)).toBe(false);
    expect(canRedo(history)).toBe(false);
    expect(undo(history)).toBe(history);
    expect(redo(history)).toBe(history);
  });

  it('pushes a snapshot at the end of each stroke', () => {
    const history = record(record(startHistory(BLANK), 'a'), 'ab');
    expect(history.past).toEqual([BLANK, 'a', 'ab']);
    expect(current(history)).toBe('ab');
    expect(canUndo(history)).toBe(true);
  });

  it('undo needs two snapshots and moves the undone state onto the redo list', () => {
    const once = undo(record(record(startHistory(BLANK), 'a'), 'ab'));
    expect(once).toEqual({ past: [BLANK, 'a'], future: ['ab'] });
    const twice = undo(once);
    expect(twice).toEqual({ past: [BLANK], future: ['ab', 'a'] });
    expect(canUndo(twice)).toBe(false);
    expect(undo(twice)).toBe(twice);
  });

  it('redo restores the last undone state', () => {
    const undone = undo(undo(record(record(startHistory(BLANK), 'a'), 'ab')));
    const once = redo(undone);
    expect(current(once)).toBe('a');
    expect(once.future).toEqual(['ab']);
    const twice = redo(once);
    expect(current(twice)).toBe('ab');
    expect(canRedo(twice)).toBe(false);
  });

  it('a new stroke after an undo discards the undone states', () => {
    const history = record(undo(record(record(startHistory(BLANK), 'a'), 'ab')), 'ac');
    expect(history).toEqual({ past: [BLANK, 'a', 'ac'], future: [] });
    expect(canRedo(history)).toBe(false);
  });

  it('a Clear is recorded like a stroke, so it can be undone', () => {
    const cleared = record(record(startHistory(BLANK), 'a'), BLANK);
    expect(current(cleared)).toBe(BLANK);
    expect(current(undo(cleared))).toBe('a');
  });

  it('never changes the history it was given', () => {
    const history = record(startHistory(BLANK), 'a');
    const frozen = structuredClone(history);
    undo(history);
    record(history, 'b');
    redo(undo(history));
    expect(history).toEqual(frozen);
  });
});
