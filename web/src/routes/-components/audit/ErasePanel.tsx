import { useState, type FormEvent } from 'react';
import { useErasePersonalData, type EraseKind } from '../../../queries/audit.ts';

const LABELS: Record<EraseKind, string> = { email: 'Email address', address: 'Client IP address', name: 'Login name' };

/** An email erases a person (all their values); an address or a login name only itself. */
const erasedWhat = ({ erased, kind }: { erased: number; kind: string }) =>
  `${erased} stored ${kind === 'email' ? 'personal' : kind} value${erased === 1 ? '' : 's'}`;

/** The erase command for an admin, with its result: personal data is blanked, the chain still verifies. */
export function ErasePanel() {
  const [kind, setKind] = useState<EraseKind>('email');
  const [value, setValue] = useState('');
  const erase = useErasePersonalData({ onSuccess: () => setValue('') });

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (value.trim()) erase.mutate({ kind, value });
  }

  return (
    <section aria-labelledby="erase-heading" className="card p-5 sm:p-6">
      <h2 id="erase-heading" className="font-display text-xl font-bold text-stone-900 dark:text-amber-50">
        Erase a person
      </h2>
      <p className="mt-1 text-sm text-stone-600 dark:text-stone-400">
        An email erases the person who gave it: their names, words, named work and comments (their anonymous stories
        stay, linked to no one). An address or login name is blanked. Events keep only references, so the log and its
        chain are unchanged.
      </p>
      <form onSubmit={onSubmit} className="mt-4 flex flex-wrap items-end gap-3">
        <div>
          <label htmlFor="erase-kind" className="field-label">
            What
          </label>
          <select
            id="erase-kind"
            className="field"
            value={kind}
            onChange={(event) => setKind(event.target.value as EraseKind)}
          >
            {(Object.keys(LABELS) as EraseKind[]).map((k) => (
              <option key={k} value={k}>
                {LABELS[k]}
              </option>
            ))}
          </select>
        </div>
        <div className="min-w-0 flex-1 basis-56">
          <label htmlFor="erase-value" className="field-label">
            {LABELS[kind]}
          </label>
          <input
            id="erase-value"
            className="field"
            value={value}
            onChange={(event) => setValue(event.target.value)}
            maxLength={320}
          />
        </div>
        <button type="submit" className="btn-secondary" disabled={erase.isPending || !value.trim()}>
          {erase.isPending ? 'Erasing…' : 'Erase'}
        </button>
      </form>
      <div role="status" aria-live="polite" className="mt-3 text-sm">
        {erase.data && (
          <p className="text-stone-700 dark:text-stone-300">Erased {erasedWhat(erase.data)}; the log is unchanged.</p>
        )}
        {erase.isError && <p className="text-rose-700 dark:text-rose-300">{erase.error.message}</p>}
      </div>
    </section>
  );
}
