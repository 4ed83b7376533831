import { useId, type ReactNode } from 'react';

interface TextFieldProps {
  label: string;
  value: string;
  onChange: (value: string) => void;
  type?: 'text' | 'email';
  multiline?: boolean;
  optional?: boolean;
  required?: boolean;
  placeholder?: string;
  autoComplete?: string;
  hint?: ReactNode;
}

/** A labelled input or textarea; '(optional)' sits outside the label so the field is named exactly. */
export function TextField({ label, value, onChange, type = 'text', multiline, optional, required, placeholder, autoComplete, hint }: TextFieldProps) {
  const id = useId();
  return (
    <div>
      <div className="mb-1.5 flex items-baseline gap-2">
        <label htmlFor={id} className="text-sm font-medium text-stone-700 dark:text-stone-300">
          {label}
        </label>
        {optional && <span className="text-xs text-stone-400">(optional)</span>}
        {required && (
          <span className="text-xs text-rose-500" aria-hidden="true">
            *
          </span>
        )}
      </div>
      {multiline ? (
        <textarea
          id={id}
          value={value}
          rows={4}
          placeholder={placeholder}
          onChange={(event) => onChange(event.target.value)}
          className="field resize-y"
        />
      ) : (
        <input
          id={id}
          type={type}
          value={value}
          placeholder={placeholder}
          autoComplete={autoComplete}
          aria-required={required || undefined}
          onChange={(event) => onChange(event.target.value)}
          className="field"
        />
      )}
      {hint && <p className="mt-1.5 text-xs text-stone-500 dark:text-stone-400">{hint}</p>}
    </div>
  );
}
