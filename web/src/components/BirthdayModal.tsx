import { Confetti } from './Confetti.tsx';
import { Modal } from './Modal.tsx';
import { LineSvg } from './icons.tsx';

const CAKE =
  'M20 21v-8a2 2 0 0 0-2-2H6a2 2 0 0 0-2 2v8M4 16s.5-1 2-1 2.5 2 4 2 2.5-2 4-2 2.5 2 4 2 2-1 2-1M2 21h20M7 8v3M12 8v3M17 8v3M7 4h.01M12 4h.01M17 4h.01';
const GIFT =
  'M20 12v10H4V12M2 7h20v5H2zM12 22V7M12 7H7.5a2.5 2.5 0 0 1 0-5C11 2 12 7 12 7zM12 7h4.5a2.5 2.5 0 0 0 0-5C13 2 12 7 12 7z';
const SPARKLES = 'M12 3l1.9 5.8L20 11l-6.1 2.2L12 19l-1.9-5.8L4 11l6.1-2.2zM19 3v4M21 5h-4M5 17v4M7 19H3';

export function CakeIcon({ className = 'h-6 w-6' }: { className?: string }) {
  return <LineIcon d={CAKE} className={className} />;
}

function LineIcon({ d, className }: { d: string; className: string }) {
  return (
    <LineSvg className={className}>
      <path d={d} />
    </LineSvg>
  );
}

interface BirthdayModalProps {
  name: string;
  onEnter: () => void;
}

/** Shown once after a guest login within the celebration window; the gallery opens when it closes. */
export function BirthdayModal({ name, onEnter }: BirthdayModalProps) {
  return (
    <Modal
      title={
        <span className="block bg-gradient-to-r from-amber-500 via-rose-500 to-fuchsia-500 bg-clip-text text-4xl tracking-wide text-transparent sm:text-5xl">
          HAPPY BIRTHDAY
        </span>
      }
      opaque
      className="max-w-xl text-center"
    >
      <p className="mt-2 font-display text-3xl font-semibold text-stone-800 dark:text-amber-100">{name}!</p>
      <p className="mt-4 text-lg text-stone-600 dark:text-stone-300">
        Everyone has been secretly making something special for you. Come and see what your friends created.
      </p>
      <div className="my-6 flex justify-center gap-4" aria-hidden="true">
        {[
          [CAKE, 'from-amber-400 to-orange-500'],
          [GIFT, 'from-rose-400 to-pink-500'],
          [SPARKLES, 'from-fuchsia-400 to-purple-500'],
        ].map(([d, tint]) => (
          <span
            key={d}
            className={`flex h-14 w-14 items-center justify-center rounded-2xl bg-gradient-to-br ${tint} text-white shadow-md`}
          >
            <LineIcon d={d!} className="h-7 w-7" />
          </span>
        ))}
      </div>
      <button type="button" onClick={onEnter} data-autofocus className="btn-primary w-full py-3 text-lg">
        Enter the Birthday Gallery!
      </button>
      {/* inside the dialog: nothing outside it can be drawn above the modal's top layer */}
      <Confetti pieces={80} durationMs={4000} />
    </Modal>
  );
}
