import { useId } from 'react';

interface AnonymousCheckboxProps {
  checked: boolean;
  onChange: (checked: boolean) => void;
  hint: string;
}

/** The 'Submit anonymously' option shared by the submission forms. */
export function AnonymousCheckbox({ checked, onChange, hint }: AnonymousCheckboxProps) {
  const id = useId();
  return (
    <div className="flex items-start gap-3">
      <input
        id={id}
        type="checkbox"
        checked={checked}
        onChange={(event) => onChange(event.target.checked)}
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
  );
}
