import { useId } from 'react';
import { TextField } from './TextField.tsx';

/** Who sends a submission: the same three fields on every form (spec §2). */
export interface Submitter {
  name: string;
  email: string;
  anonymous: boolean;
}

export const NO_SUBMITTER: Submitter = { name: '', email: '', anonymous: false };

/** The name the gallery shows. */
export function shownName(submitter: Submitter): string {
  return submitter.anonymous ? 'Anonymous' : submitter.name.trim();
}

/** Name and email both typed (the forms that always need them keep Submit disabled until then). */
export function hasContactDetails(submitter: Submitter): boolean {
  return submitter.name.trim() !== '' && submitter.email.trim() !== '';
}

interface SubmitterFieldsProps {
  value: Submitter;
  onChange: (next: Submitter) => void;
  /** Each form names the fields its own way (spec §2): 'Name' or 'Your Name', 'Email' or 'Email Address'. */
  labels?: { name: string; email: string };
  /** Under 'Submit anonymously': what happens to the name and email. */
  hint?: string;
  /** A story sent anonymously needs neither: the fields are switched off (spec §2 Story). */
  anonymousNeedsNoDetails?: boolean;
  /** Name and email side by side from small screens up. */
  sideBySide?: boolean;
  errors?: { name?: string; email?: string };
}

export function SubmitterFields({
  value,
  onChange,
  labels = { name: 'Name', email: 'Email' },
  hint = 'Your name and contact details are still required for verification but will not be shown publicly.',
  anonymousNeedsNoDetails = false,
  sideBySide = false,
  errors = {},
}: SubmitterFieldsProps) {
  const id = useId();
  const off = anonymousNeedsNoDetails && value.anonymous;
  const fields = (
    <>
      <TextField
        label={labels.name}
        value={value.name}
        onChange={(name) => onChange({ ...value, name })}
        required={!off}
        disabled={off}
        autoComplete="name"
        error={errors.name}
      />
      <TextField
        label={labels.email}
        type="email"
        value={value.email}
        onChange={(email) => onChange({ ...value, email })}
        required={!off}
        disabled={off}
        autoComplete="email"
        error={errors.email}
      />
    </>
  );
  return (
    <>
      {sideBySide ? <div className="grid gap-6 sm:grid-cols-2">{fields}</div> : fields}
      <div className="flex items-start gap-3">
        <input
          id={id}
          type="checkbox"
          checked={value.anonymous}
          onChange={(event) => onChange({ ...value, anonymous: event.target.checked })}
          aria-describedby={`${id}-hint`}
          className="mt-0.5 h-5 w-5 shrink-0 cursor-pointer accent-rose-500"
        />
        <div>
          <label htmlFor={id} className="cursor-pointer font-medium text-stone-800 dark:text-stone-100">
            Submit anonymously
          </label>
          <p id={`${id}-hint`} className="text-sm text-stone-500 dark:text-stone-400">
            {hint}
          </p>
        </div>
      </div>
    </>
  );
}
