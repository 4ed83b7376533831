import { z } from 'zod';
import { EMAIL_PATTERN } from '#contract/email.ts';

/** An optional free-text field: trimmed, and blank becomes null. */
export const optionalText = (max: number) =>
  z
    .string()
    .max(max)
    .nullish()
    .transform((v) => (v?.trim() ? v.trim() : null));

/** A required email of at most 255 characters, refused with the form's own message. */
export const emailField = (message: string) =>
  z
    .string({ error: message })
    .trim()
    .max(255, 'Email must be 255 characters or fewer')
    .pipe(z.string().regex(EMAIL_PATTERN, message));

/** Spec §5: an artist name of at least 2 characters, 'Artist name is required'. */
export const artistName = z
  .string({ error: 'Artist name is required' })
  .trim()
  .min(2, 'Artist name is required')
  .max(255, 'Name must be 255 characters or fewer');
