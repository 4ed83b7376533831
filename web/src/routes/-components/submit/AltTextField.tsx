import { useDraft } from '../../../lib/drafts.ts';
import { TextField } from './TextField.tsx';

/** The server's limit on a picture's description (api/http/fields.ts, decision 122). */
export const ALT_TEXT_MAX = 1000;

/** A picture's description for those who cannot see it, kept on the device like the other words (decision 099). */
export function useAltTextDraft(form: string) {
  return useDraft(`${form}.altText`);
}

interface AltTextFieldProps {
  value: string;
  onChange: (value: string) => void;
  /** what the picture is: 'picture' or 'drawing' */
  noun: string;
}

/** The alt text of an artwork (decision 122): screen readers read it where the picture is shown. */
export function AltTextField({ value, onChange, noun }: AltTextFieldProps) {
  return (
    <TextField
      label="Describe the picture"
      value={value}
      onChange={onChange}
      multiline
      rows={2}
      optional
      maxLength={ALT_TEXT_MAX}
      placeholder={`What does the ${noun} show?`}
      hint="Read aloud by screen readers to anyone who cannot see the picture. Without it, its title is read."
    />
  );
}
