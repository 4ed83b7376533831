import { useEffect, useState, type CSSProperties } from 'react';

const COLOURS = ['#f59e0b', '#f43f5e', '#ec4899', '#8b5cf6', '#10b981', '#3b82f6', '#fbbf24', '#fb7185'];

interface ConfettiProps {
  pieces?: number;
  durationMs?: number;
}

interface Piece {
  left: number;
  delayMs: number;
  fallMs: number;
  colour: string;
  width: number;
  height: number;
  drift: number;
  spin: number;
  round: boolean;
}

function makePieces(count: number, durationMs: number): Piece[] {
  return Array.from({ length: count }, (_, index) => ({
    left: Math.random() * 100,
    delayMs: Math.random() * durationMs * 0.25,
    fallMs: durationMs * (0.5 + Math.random() * 0.25),
    colour: COLOURS[index % COLOURS.length] ?? '#f59e0b',
    width: 6 + Math.random() * 6,
    height: 10 + Math.random() * 8,
    drift: (Math.random() - 0.5) * 240,
    spin: (Math.random() < 0.5 ? -1 : 1) * (360 + Math.random() * 720),
    round: Math.random() < 0.3,
  }));
}

function prefersReducedMotion(): boolean {
  return typeof window.matchMedia === 'function' && window.matchMedia('(prefers-reduced-motion: reduce)').matches;
}

/**
 * Plain CSS confetti that falls once and is gone after `durationMs` (defaults 50 pieces, 3000 ms).
 * Nothing at all for visitors who ask for reduced motion.
 */
export function Confetti({ pieces = 50, durationMs = 3000 }: ConfettiProps) {
  const [items] = useState(() => (prefersReducedMotion() ? [] : makePieces(pieces, durationMs)));
  const [done, setDone] = useState(items.length === 0);

  useEffect(() => {
    const timer = setTimeout(() => setDone(true), durationMs);
    return () => clearTimeout(timer);
  }, [durationMs]);

  if (done) return null;
  return (
    <div
      data-testid="confetti"
      className="pointer-events-none fixed inset-0 z-[60] overflow-hidden motion-reduce:hidden"
      aria-hidden="true"
    >
      {items.map((piece, index) => (
        <span
          key={index}
          className="animate-confetti-fall absolute -top-6 block"
          style={
            {
              left: `${piece.left}%`,
              width: piece.width,
              height: piece.round ? piece.width : piece.height,
              backgroundColor: piece.colour,
              borderRadius: piece.round ? '9999px' : '2px',
              animationDelay: `${piece.delayMs}ms`,
              '--confetti-duration': `${piece.fallMs}ms`,
              '--confetti-drift': `${piece.drift}px`,
              '--confetti-spin': `${piece.spin}deg`,
            } as CSSProperties
          }
        />
      ))}
    </div>
  );
}
