import { useEffect, useId, useRef, useState } from 'react';

/** The review queue's keys (issue 27, point 5; decision 110). */
export const SHORTCUTS = [
  { keys: 'j', does: 'Next item' },
  { keys: 'k', does: 'Previous item' },
  { keys: 'a', does: 'Approve the item' },
  { keys: 'r', does: 'Reject the item' },
  { keys: 'n', does: "Write in the item's notes" },
  { keys: '?', does: 'Show or hide these shortcuts' },
] as const;

/** Keys typed into a field are words, not commands. */
function typing(target: EventTarget | null): boolean {
  return (
    target instanceof HTMLElement && (target.isContentEditable || /^(INPUT|TEXTAREA|SELECT)$/.test(target.tagName))
  );
}

const cardsIn = (panel: HTMLElement | null) => [...(panel?.querySelectorAll<HTMLElement>(':scope > ul > li') ?? [])];
const nameOf = (card: HTMLElement) => card.querySelector('h3')?.textContent?.trim() || 'Untitled';
const buttonIn = (card: HTMLElement, name: string) =>
  [...card.querySelectorAll('button')].find((button) => button.textContent?.trim() === name && !button.disabled);

/**
 * j/k move between the open tab's cards, a/r press the card's Approve or Reject, n goes to its notes
 * and ? lists the keys. Where it moves and what it does is said in a live region, for screen readers.
 */
export function QueueShortcuts({ panelId }: { panelId: string }) {
  const [open, setOpen] = useState(false);
  const [said, setSaid] = useState('');
  const listId = useId();
  // where the last decision was taken: the next item has moved into its place
  const resumeAt = useRef<number | null>(null);

  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if (event.ctrlKey || event.metaKey || event.altKey || typing(event.target)) return;
      const panel = document.getElementById(panelId);
      const cards = cardsIn(panel);
      const current = cards.findIndex((card) => card.contains(document.activeElement));
      const say = (words: string) => setSaid((last) => (last === words ? `${words}\u00a0` : words));
      const move = (step: number) => {
        if (cards.length === 0) return say('Nothing is waiting here.');
        const from = current >= 0 ? current : resumeAt.current !== null ? resumeAt.current - (step > 0 ? 1 : 0) : -1;
        const index = Math.min(Math.max(from + step, 0), cards.length - 1);
        resumeAt.current = null;
        const card = cards[index]!;
        card.tabIndex = -1;
        card.focus();
        card.scrollIntoView({ block: 'nearest' });
        say(`${index + 1} of ${cards.length}: ${nameOf(card)}`);
      };
      const press = (name: 'Approve' | 'Reject') => {
        const card = cards[current];
        const button = card && buttonIn(card, name);
        if (!card || !button) return say('Choose an item first, with j or k.');
        resumeAt.current = current;
        button.click();
        // focus stays on the page while the card leaves it
        panel?.focus();
      };
      const action = {
        j: () => move(1),
        k: () => move(-1),
        a: () => press('Approve'),
        r: () => press('Reject'),
        n: () => {
          const notes = cards[current]?.querySelector('textarea');
          if (notes) notes.focus();
          else say('Choose an item first, with j or k.');
        },
        '?': () => setOpen((shown) => !shown),
        Escape: () => setOpen(false),
      }[event.key];
      if (!action) return;
      event.preventDefault();
      action();
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [panelId]);

  return (
    <div className="text-sm text-stone-600 dark:text-stone-400">
      <p className="sr-only" role="status">
        {said}
      </p>
      <button
        type="button"
        aria-expanded={open}
        aria-controls={listId}
        aria-keyshortcuts="?"
        onClick={() => setOpen((shown) => !shown)}
        className="rounded-full underline decoration-dotted underline-offset-4 hover:text-stone-900 dark:hover:text-amber-50"
      >
        Keyboard shortcuts
      </button>
      {open && (
        <dl
          id={listId}
          aria-label="Keyboard shortcuts"
          className="card mt-3 grid max-w-sm grid-cols-[auto_1fr] gap-x-4 gap-y-1.5 p-4"
        >
          {SHORTCUTS.map(({ keys, does }) => (
            <div key={keys} className="contents">
              <dt>
                <kbd className="rounded-md border border-stone-300 bg-stone-50 px-1.5 font-mono text-stone-900 dark:border-stone-600 dark:bg-stone-800 dark:text-stone-100">
                  {keys}
                </kbd>
              </dt>
              <dd>{does}</dd>
            </div>
          ))}
        </dl>
      )}
    </div>
  );
}
