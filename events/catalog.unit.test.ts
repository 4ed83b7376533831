import { describe, expect, it } from 'vitest';
import { EVENT_GROUPS, EVENT_WORDS } from '#contract/eventTypes.ts';
import { allEvents } from './catalog.ts';

const registered = allEvents.map((e) => e.type);

describe('the audit console knows every event type', () => {
  it('describes every registered type in plain words', () => {
    const undescribed = registered.filter((type) => !(EVENT_WORDS as Record<string, string>)[type]?.trim());
    expect(undescribed).toEqual([]);
  });

  it('lists no type the registry does not know, and each type once', () => {
    const listed = EVENT_GROUPS.flatMap((g) => Object.keys(g.words));
    expect(listed.filter((type) => !(registered as readonly string[]).includes(type))).toEqual([]);
    expect(new Set(listed).size).toBe(listed.length);
  });

  it('words read as words, not as the type name', () => {
    for (const [type, words] of Object.entries(EVENT_WORDS)) {
      expect(words, type).not.toBe(type);
      expect(words, type).toMatch(/^[A-Z][a-z]+( [a-z]+)*$/);
    }
  });
});
