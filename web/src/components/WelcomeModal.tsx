import { useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { tributeQueryOptions } from '../queries/tribute.ts';
import { hasAgreedToWelcome, storeWelcomeAgreed } from '../lib/session.ts';
import { formatDay, isBeforeCutoff } from '../lib/tributeDates.ts';
import { Modal } from './Modal.tsx';

interface WelcomeModalProps {
  name: string;
  /** The reveal day, e.g. 'September 11' (the start of the celebration window). */
  revealDay: string;
  onAgree: () => void;
}

/** The secret-project rules (spec §1); continue stays disabled until the checkbox is ticked. */
export function WelcomeModal({ name, revealDay, onAgree }: WelcomeModalProps) {
  const [agreed, setAgreed] = useState(false);
  const rules = [
    ['🤫', 'Keep it secret', `${name} must not find out about this gallery before the reveal.`],
    ['💛', 'Be respectful', 'Everything here is a gift. Keep it kind.'],
    ['🎨', 'Original work only', 'Submit only work you made yourself.'],
    ['🚫', 'No offensive content', 'Nothing you would not show at the office.'],
    ['✅', 'Approval first', 'All submissions need approval before appearing in the gallery.'],
    ['🎉', 'The big reveal', `The gallery is revealed at the brokerage meeting on ${revealDay}.`],
  ] as const;

  return (
    <Modal title={`Welcome to ${name}'s Secret Tribute Gallery`} className="max-w-2xl">
      <p className="mt-3 text-stone-600 dark:text-stone-300">
        This is a surprise tribute. Before you continue, please read and agree to the rules of this secret project.
      </p>
      <ul className="mt-5 grid gap-3 sm:grid-cols-2">
        {rules.map(([emoji, title, text]) => (
          <li key={title} className="flex gap-3 rounded-xl bg-amber-50 p-3 dark:bg-stone-800/70">
            <span className="text-2xl" aria-hidden="true">
              {emoji}
            </span>
            <span>
              <span className="block font-semibold text-stone-800 dark:text-amber-100">{title}</span>
              <span className="text-sm text-stone-600 dark:text-stone-400">{text}</span>
            </span>
          </li>
        ))}
      </ul>
      <label className="mt-6 flex cursor-pointer items-start gap-3 rounded-xl border border-amber-200 p-3 dark:border-stone-700">
        <input
          type="checkbox"
          checked={agreed}
          onChange={(event) => setAgreed(event.target.checked)}
          className="mt-0.5 h-5 w-5 accent-rose-500"
        />
        <span className="text-stone-700 dark:text-stone-200">I agree to keep this a secret and to follow these rules.</span>
      </label>
      <button type="button" disabled={!agreed} onClick={onAgree} className="btn-primary mt-6 w-full py-3 text-lg">
        Continue to the Gallery
      </button>
    </Modal>
  );
}

/** Shows the welcome modal until the cutoff, or until the visitor has agreed once. */
export function WelcomeCheck() {
  const tribute = useQuery(tributeQueryOptions());
  const [agreed, setAgreed] = useState(hasAgreedToWelcome);

  if (agreed || !tribute.data || !isBeforeCutoff(tribute.data.welcomeCutoff)) return null;
  return (
    <WelcomeModal
      name={tribute.data.name}
      revealDay={formatDay(tribute.data.celebrationStart)}
      onAgree={() => {
        storeWelcomeAgreed();
        setAgreed(true);
      }}
    />
  );
}
