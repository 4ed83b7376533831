import { isValidEmail } from '../../../contract/email.ts';

export interface FormProblem {
  title: string;
  description: string;
}

/** Spec §5 form checks on the artist's name and email, in the order they are reported; null when both pass. */
export function artistDetailsProblem(name: string, email: string): FormProblem | null {
  if (!name.trim()) {
    return { title: 'Missing artist name', description: 'Please provide your name in the artist information section.' };
  }
  if (!email.trim()) {
    return {
      title: 'Missing email',
      description: 'Please provide your email address in the artist information section.',
    };
  }
  if (!isValidEmail(email)) return { title: 'Invalid email', description: 'Please enter a valid email address.' };
  return null;
}
