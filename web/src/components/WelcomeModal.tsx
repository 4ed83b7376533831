import { useState } from 'react';
import { Modal } from './Modal.tsx';

/** Line icons for the rules (24x24, stroked), drawn here rather than as emoji so every system shows them. */
const RULE_ICONS = {
  secret:
    'M3 3l18 18M10.6 10.6a2 2 0 0 0 2.8 2.8M9.9 5.1A10 10 0 0 1 12 5c5 0 9 4.5 10 7-.4 1-1.2 2.3-2.3 3.5M6.6 6.6C4.5 8 3 10 2 12c1 2.5 5 7 10 7 1.8 0 3.4-.5 4.8-1.3',
  respect:
    'M19 14c1.5-1.5 3-3.2 3-5.5A5.5 5.5 0 0 0 16.5 3c-1.8 0-3 .5-4.5 2-1.5-1.5-2.7-2-4.5-2A5.5 5.5 0 0 0 2 8.5c0 2.3 1.5 4 3 5.5l7 7z',
  original:
    'M12 22a10 10 0 1 1 10-10c0 2.5-2 4-4.5 4H16a2 2 0 0 0-1.5 3.3A1.7 1.7 0 0 1 12 22zM7.5 11.5h.01M10.5 7.5h.01M15.5 8.5h.01',
  offensive: 'M12 22a10 10 0 1 0 0-20 10 10 0 0 0 0 20zM4.9 4.9l14.2 14.2',
  approval: 'M22 11.1V12a10 10 0 1 1-5.9-9.1M22 4 12 14l-3-3',
  reveal: 'M12 3l1.9 5.8L20 11l-6.1 2.2L12 19l-1.9-5.8L4 11l6.1-2.2zM19 3v4M21 5h-4M5 17v4M7 19H3',
} as const;

function RuleIcon({ name }: { name: keyof typeof RULE_ICONS }) {
  return (
    <span className="flex h-9 w-9 shrink-0 items-center justify-center rounded-full bg-gradient-to-br from-amber-400 to-rose-500 text-white">
      <svg
        viewBox="0 0 24 24"
        className="h-5 w-5"
        fill="none"
        stroke="currentColor"
        strokeWidth="2"
        strokeLinecap="round"
        strokeLinejoin="round"
        aria-hidden="true"
      >
        <path d={RULE_ICONS[name]} />
      </svg>
    </span>
  );
}

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
    ['secret', 'Keep it secret', `${name} must not find out about this gallery before the reveal.`],
    ['respect', 'Be respectful', 'Everything here is a gift. Keep it kind.'],
    ['original', 'Original work only', 'Submit only work you made yourself.'],
    ['offensive', 'No offensive content', 'Nothing you would not show at the office.'],
    ['approval', 'Approval first', 'All submissions need approval before appearing in the gallery.'],
    ['reveal', 'The big reveal', `The gallery is revealed at the brokerage meeting on ${revealDay}.`],
  ] as const;

  return (
    <Modal title={`Welcome to ${name}'s Secret Tribute Gallery`} className="max-w-2xl">
      <p className="mt-3 text-stone-600 dark:text-stone-300">
        This is a surprise tribute. Before you continue, please read and agree to the rules of this secret project.
      </p>
      <ul className="mt-5 grid gap-3 sm:grid-cols-2">
        {rules.map(([icon, title, text]) => (
          <li key={title} className="flex gap-3 rounded-xl bg-amber-50 p-3 dark:bg-stone-800/70">
            <RuleIcon name={icon} />
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
        <span className="text-stone-700 dark:text-stone-200">
          I agree to keep this a secret and to follow these rules.
        </span>
      </label>
      <button type="button" disabled={!agreed} onClick={onAgree} className="btn-primary mt-6 w-full py-3 text-lg">
        Continue to the Gallery
      </button>
    </Modal>
  );
}
