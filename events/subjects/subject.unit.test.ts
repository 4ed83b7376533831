import { describe, it } from 'vitest';
import { spec } from '../../tests/support/decider.ts';
import { subjectDecider } from './subject.ts';

const now = '2026-11-26T10:00:00.000Z';
const erase = { type: 'EraseSubject' as const, subjectId: 5, now };
const erased = { type: 'SubjectErased' as const, data: { subjectId: 5, erasedAt: now } };

describe('subject decider (decision 050)', () => {
  it('erases a subject once; asking again changes nothing', () => {
    spec(subjectDecider).given([]).when(erase).then([erased]);
    spec(subjectDecider).given([erased]).when(erase).thenNothing();
  });
});
