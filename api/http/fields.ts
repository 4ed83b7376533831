import { z } from 'zod';
import { EMAIL_PATTERN } from '#contract/email.ts';
import type { PersonalField } from '#events/personal.ts';
import type { PersonalData } from '../personalData.ts';

/** An optional free-text field: trimmed, and blank becomes null. */
export const optionalText = (max: number) =>
  z
    .string()
    .max(max)
    .nullish()
    .transform((v) => (v?.trim() ? v.trim() : null));

/** An optional text of at most `max` characters, named in its messages; blank becomes null. */
export const namedText = (label: string, max: number) =>
  z
    .string({ error: `${label} must be text` })
    .max(max, `${label} must be ${max} characters or fewer`)
    .nullish()
    .transform((v) => (v?.trim() ? v.trim() : null));

/** Spec §5: a story's words and its writer's name, with the story form's own messages. */
export const storyFields = {
  title: namedText('Title', 255),
  content: z
    .string({ error: 'Please write something before submitting' })
    .trim()
    .min(1, 'Please write something before submitting')
    .max(20_000, 'Your story is too long'),
  authorName: z
    .string({ error: 'Please enter your name' })
    .trim()
    .min(1, 'Please enter your name')
    .max(255, 'Name must be 255 characters or fewer'),
};

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

/** Spec §5: the words an artwork or a media submission is described with. */
export const describedFields = {
  title: optionalText(255),
  description: optionalText(5000),
  tags: optionalText(1000),
};

/** A picture's description for those who cannot see it (decision 122): optional, like a description. */
export const altText = z
  .string({ error: 'Alt text must be text' })
  .max(1000, 'Alt text must be 1000 characters or fewer')
  .nullish()
  .transform((v) => (v?.trim() ? v.trim() : null));

/** Spec §5: who submits an artwork or a media item. */
export const submitterFields = {
  artistName,
  email: emailField('Please enter a valid email'),
};

type Described = { [K in keyof typeof describedFields]: z.output<(typeof describedFields)[K]> };
type Submitter = { [K in keyof typeof submitterFields]: z.output<(typeof submitterFields)[K]> };

/**
 * A submission's described and submitter fields as its event holds them: the words, the name and the
 * email go to personal data (in the caller's transaction `tx`), tied to the stream and to the
 * submitter's subject when there is one, and the event keeps their refs (decision 050). `more` are
 * further words of the kind's own (an artwork's alt text), kept the same way.
 */
export async function submissionData<X extends PersonalField = never>(
  personal: Pick<PersonalData, 'recordEmail' | 'recordTexts' | 'subjectFor' | 'recordSender'>,
  input: Described & Submitter,
  tx: Parameters<PersonalData['recordEmail']>[1],
  submitter: { stream: string; visitorId?: string },
  more?: Record<X, string | null>,
) {
  const subjectId = submitter.visitorId ? await personal.subjectFor(submitter.visitorId, tx) : null;
  if (submitter.visitorId) await personal.recordSender(submitter.stream, submitter.visitorId, tx);
  const owner = { stream: submitter.stream, subjectId };
  const { title, description, tags, artistName, email } = input;
  const words = { title, description, tags, artistName, ...more } as Record<
    'title' | 'description' | 'tags' | 'artistName' | X,
    string | null
  >;
  return {
    ...(await personal.recordTexts(words, owner, tx)),
    emailRef: await personal.recordEmail(email, tx, owner),
  };
}
