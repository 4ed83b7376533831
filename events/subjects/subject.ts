import { z } from 'zod';
import type { Decider } from '../decider.ts';
import { defineEvent, type EventOf } from '../registry.ts';

/**
 * One person as the server knows them (a browser's visitor id): their names and free text are
 * personal data tied to the subject, outside the log (docs/decisions/050). Erasing them blanks that
 * data and appends SubjectErased, which names no item: the log never links a person's work.
 */
export const subjectStream = (id: number) => `subject-${id}`;

export const SubjectErased = defineEvent(
  'SubjectErased',
  z.object({ subjectId: z.number().int().positive(), erasedAt: z.iso.datetime() }),
);

export const subjectEvents = [SubjectErased] as const;
type SubjectEvent = EventOf<typeof SubjectErased>;

export type EraseSubject = { type: 'EraseSubject'; subjectId: number; now: string };

/** A subject is erased once; asking again changes nothing. */
export const subjectDecider: Decider<boolean, SubjectEvent, EraseSubject> = {
  initial: false,
  evolve: () => true,
  decide: (command, erased) =>
    erased ? [] : [{ type: 'SubjectErased', data: { subjectId: command.subjectId, erasedAt: command.now } }],
};
