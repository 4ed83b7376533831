import { z } from 'zod';
import { AlreadyDecided, type ReviewStatus } from './review.ts';
import { PersonalRef } from './personal.ts';

/**
 * What a sender may do with their own submission (CONTRACT §11, docs/decisions/087): edit its words
 * while it is pending, and withdraw it at any time. The route checks that the browser is its sender;
 * the deciders hold the rules on the item's state.
 */

/** An edit's words, as refs to new personal_data rows (decision 050): the old rows stay as they were. */
export const WORK_EDIT_REFS = {
  titleRef: PersonalRef.nullable(),
  descriptionRef: PersonalRef.nullable(),
  tagsRef: PersonalRef.nullable(),
  artistNameRef: PersonalRef.nullable(),
};
export const editedAt = z.iso.datetime();
export const withdrawnAt = z.iso.datetime();

/** An item decided cannot be edited any more: 409 with what stands, as a clashing review answers. */
export function assertEditable(noun: string, status: ReviewStatus, version: number): void {
  if (status !== 'pending') throw new AlreadyDecided(noun, status, version);
}
