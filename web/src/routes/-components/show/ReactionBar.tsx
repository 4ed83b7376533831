import { useRef, useState } from 'react';
import { REACTION_EMOJIS, sendReaction, type ReactableRef, type ReactionEmoji } from '../../../queries/show.ts';

const NAMES: Record<ReactionEmoji, string> = {
  '👏': 'Applause',
  '❤️': 'Love',
  '😂': 'Laugh',
  '😮': 'Wow',
  '🎉': 'Celebrate',
  '🙏': 'Thanks',
};

/**
 * The phone's reaction bar: six big buttons under the thumb. A tap is sent at once and acknowledged
 * with a little pop; taps the server turns away (more than 5 a second) are dropped quietly.
 */
export function ReactionBar({ item, className = '' }: { item: ReactableRef; className?: string }) {
  const [popped, setPopped] = useState<{ emoji: ReactionEmoji; n: number } | null>(null);
  const counter = useRef(0);
  function react(emoji: ReactionEmoji) {
    setPopped({ emoji, n: ++counter.current });
    sendReaction(item, emoji).catch(() => {});
    navigator.vibrate?.(10);
  }
  return (
    <div
      role="toolbar"
      aria-label="React to this item"
      className={`grid grid-cols-6 gap-1.5 rounded-2xl bg-white/80 p-1.5 shadow-lg backdrop-blur dark:bg-stone-900/80 ${className}`}
    >
      {REACTION_EMOJIS.map((emoji) => (
        <button
          key={emoji}
          type="button"
          aria-label={NAMES[emoji]}
          data-reaction={emoji}
          onClick={() => react(emoji)}
          className="relative flex h-14 items-center justify-center rounded-xl text-3xl transition select-none active:scale-90 active:bg-amber-100 dark:active:bg-stone-700"
        >
          <span aria-hidden="true">{emoji}</span>
          {popped?.emoji === emoji && (
            <span
              key={popped.n}
              aria-hidden="true"
              className="pointer-events-none absolute -top-2 text-2xl motion-safe:animate-reaction-pop motion-reduce:hidden"
            >
              {emoji}
            </span>
          )}
        </button>
      ))}
    </div>
  );
}

/** An item's reaction totals as a quiet row of chips (cards, detail pages, the presenter). */
export function ReactionTotals({
  totals,
  className = '',
}: {
  totals?: Partial<Record<string, number>>;
  className?: string;
}) {
  const shown = REACTION_EMOJIS.filter((e) => (totals?.[e] ?? 0) > 0);
  if (shown.length === 0) return null;
  return (
    <ul aria-label="Reactions" className={`flex flex-wrap gap-1.5 ${className}`}>
      {shown.map((emoji) => (
        <li
          key={emoji}
          className="inline-flex items-center gap-1 rounded-full bg-white/70 px-2 py-0.5 text-sm tabular-nums shadow-sm dark:bg-stone-800/70"
        >
          <span aria-hidden="true">{emoji}</span>
          <span className="sr-only">{NAMES[emoji]}</span>
          {totals![emoji]}
        </li>
      ))}
    </ul>
  );
}

/** A card's reactions in a few characters: the three most given and the total. */
export function ReactionSummary({ totals }: { totals?: Partial<Record<string, number>> }) {
  const given = REACTION_EMOJIS.filter((e) => (totals?.[e] ?? 0) > 0).sort((a, b) => totals![b]! - totals![a]!);
  if (given.length === 0) return null;
  const total = given.reduce((n, e) => n + totals![e]!, 0);
  return (
    <span
      className="inline-flex items-center gap-1 text-sm text-stone-500 tabular-nums dark:text-stone-400"
      aria-label={`${total} ${total === 1 ? 'reaction' : 'reactions'}`}
      data-testid="reaction-summary"
    >
      <span aria-hidden="true">{given.slice(0, 3).join('')}</span>
      <span aria-hidden="true">{total}</span>
    </span>
  );
}
