import { useId, type ReactNode } from 'react';

interface TextFieldProps {
  label: string;
  value: string;
  onChange: (value: string) => void;
  type?: 'text' | 'email';
  multiline?: boolean;
  rows?: number;
  optional?: boolean;
  required?: boolean;
  disabled?: boolean;
  placeholder?: string;
  autoComplete?: string;
  maxLength?: number;
  hint?: ReactNode;
  /** A validation message shown under the field and announced with it. */
  error?: string | null;
}

// Invalid fields turn red; disabled ones look switched off, not just faded.
const fieldClass =
  'field aria-[invalid=true]:border-rose-400 disabled:cursor-not-allowed disabled:bg-stone-100 dark:aria-[invalid=true]:border-rose-700 dark:disabled:bg-stone-800/70';

/** A labelled input or textarea; '(optional)' sits outside the label so the field is named exactly. */
export function TextField(props: TextFieldProps) {
  const {
    label,
    value,
    onChange,
    type = 'text',
    multiline,
    rows = 4,
    optional,
    required,
    disabled,
    placeholder,
    autoComplete,
    maxLength,
    hint,
    error,
  } = props;
  const id = useId();
  const describedBy = [hint ? `${id}-hint` : '', error ? `${id}-error` : ''].filter(Boolean).join(' ') || undefined;
  const shared = {
    id,
    value,
    placeholder,
    disabled,
    maxLength,
    'aria-invalid': error ? true : undefined,
    'aria-describedby': describedBy,
    'aria-required': required || undefined,
  };
  return (
    <div>
      <div className="mb-1.5 flex items-baseline gap-2">
        <label htmlFor={id} className="text-sm font-medium text-stone-700 dark:text-stone-300">
          {label}
        </label>
        {optional && <span className="text-xs text-stone-500 dark:text-stone-400">(optional)</span>}
        {required && (
          <span className="text-xs text-rose-500" aria-hidden="true">
            *
          </span>
        )}
      </div>
      {multiline ? (
        <textarea
          {...shared}
          rows={rows}
          onChange={(event) => onChange(event.target.value)}
          className={`${fieldClass} resize-y`}
        />
      ) : (
        <input
          {...shared}
          type={type}
          autoComplete={autoComplete}
          onChange={(event) => onChange(event.target.value)}
          className={fieldClass}
        />
      )}
      {hint && (
        <p id={`${id}-hint`} className="mt-1.5 text-xs text-stone-500 dark:text-stone-400">
          {hint}
        </p>
      )}
      {error && (
        <p id={`${id}-error`} className="mt-1.5 text-sm font-medium text-rose-600 dark:text-rose-400">
          {error}
        </p>
      )}
    </div>
  );
}
