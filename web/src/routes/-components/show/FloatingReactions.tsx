import { useEffect, useRef, useState } from 'react';
import { useLiveMessages } from '../../../live/connection.ts';
import type { ReactionEmoji, ShowItemRef } from '../../../queries/show.ts';

/** At most this many emoji float at once; a bigger burst floats this many and the rest show as a number. */
const MAX_FLOATING = 40;
const FLOAT_MS = 2600;

interface Floater {
  key: number;
  emoji: ReactionEmoji;
  left: number;
  delay: number;
  size: number;
}

/**
 * Reactions rising over the big screen as `reactions:burst` messages come (at most 4 a second per
 * item, however many tap): each burst adds a few emoji spread over its quarter second, so a hundred
 * taps stay smooth. With reduced motion, a counter pulses instead.
 */
export function FloatingReactions({ item }: { item: ShowItemRef }) {
  const [floaters, setFloaters] = useState<Floater[]>([]);
  const [recent, setRecent] = useState(0);
  const next = useRef(0);
  const itemRef = useRef(item);
  itemRef.current = item;

  useLiveMessages((message) => {
    if (message.event !== 'reactions:burst') return;
    const { kind, id, counts } = message.payload;
    if (kind !== itemRef.current.kind || id !== itemRef.current.id) return;
    const fresh: Floater[] = [];
    for (const [emoji, n] of Object.entries(counts) as Array<[ReactionEmoji, number]>) {
      for (let i = 0; i < n; i++) {
        fresh.push({
          key: next.current++,
          emoji,
          left: 5 + Math.random() * 90,
          delay: Math.random() * 250,
          size: 2 + Math.random() * 1.5,
        });
      }
    }
    setRecent((r) => r + fresh.length);
    setFloaters((list) => [...list, ...fresh].slice(-MAX_FLOATING));
  });

  // floaters leave once risen; the counter fades after a quiet moment
  useEffect(() => {
    if (floaters.length === 0) return;
    const timer = setTimeout(() => setFloaters((list) => list.slice(Math.ceil(list.length / 2))), FLOAT_MS / 2);
    return () => clearTimeout(timer);
  }, [floaters]);
  useEffect(() => {
    if (recent === 0) return;
    const timer = setTimeout(() => setRecent(0), 3000);
    return () => clearTimeout(timer);
  }, [recent]);
  useEffect(() => {
    setFloaters([]);
    setRecent(0);
  }, [item.kind, item.id]);

  return (
    <div aria-hidden="true" className="pointer-events-none absolute inset-0 z-40 overflow-hidden">
      <div className="motion-reduce:hidden">
        {floaters.map((f) => (
          <span
            key={f.key}
            data-testid="floating-reaction"
            className="absolute bottom-0 animate-reaction-float"
            style={{ left: `${f.left}%`, fontSize: `${f.size}rem`, animationDelay: `${f.delay}ms` }}
          >
            {f.emoji}
          </span>
        ))}
      </div>
      {recent > 0 && (
        <span
          data-testid="reaction-pulse"
          className="absolute right-6 bottom-24 hidden rounded-full bg-rose-600 px-3 py-1 text-lg font-bold text-white motion-reduce:inline"
        >
          +{recent}
        </span>
      )}
    </div>
  );
}
