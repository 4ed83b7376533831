import { DomainError } from './errors.ts';

export type ReviewStatus = 'pending' | 'approved' | 'rejected';

/** An admin's decision on a submission, as every kind's ReviewX command carries it. */
export interface ReviewData {
  status: 'approved' | 'rejected';
  /** the note's personal_data row (erasable free text, decision 090), null without a note */
  adminNotesRef: number | null;
  /** The stream version the admin saw, when they stated one: a deliberate change of a decision. */
  expectedVersion?: number;
}

/** A decision that clashes with the one already made: 409 with what stands now. */
export class AlreadyDecided extends DomainError {
  constructor(noun: string, status: ReviewStatus, version: number) {
    super(409, status === 'pending' ? `${noun} has changed since you saw it` : `${noun} was already ${status}`, {
      status,
      version,
    });
  }
}

/**
 * Moderation decides pending items (docs/decisions/012). True when the review should record a
 * decision; false when it is the decision already made (the same decision twice is one event). A
 * different decision on a decided item stands only when the admin stated the version they saw and
 * it is still the current one; otherwise 409 with the current status.
 */
export function reviewDecides(noun: string, current: ReviewStatus, review: ReviewData, version: number): boolean {
  const stated = review.expectedVersion;
  if (stated !== undefined && stated !== version) throw new AlreadyDecided(noun, current, version);
  if (current === review.status) return false;
  if (current === 'pending' || stated !== undefined) return true;
  throw new AlreadyDecided(noun, current, version);
}
