import { Confetti } from './Confetti.tsx';
import { Modal } from './Modal.tsx';

interface BirthdayModalProps {
  name: string;
  onEnter: () => void;
}

/** Shown once after a guest login within the celebration window; the gallery opens when it closes. */
export function BirthdayModal({ name, onEnter }: BirthdayModalProps) {
  return (
    <>
      <Modal
        title={
          <span className="block bg-gradient-to-r from-amber-500 via-rose-500 to-fuchsia-500 bg-clip-text text-4xl tracking-wide text-transparent sm:text-5xl">
            HAPPY BIRTHDAY
          </span>
        }
        opaque
        className="max-w-xl text-center"
      >
        <p className="mt-2 font-display text-3xl font-semibold text-stone-800 dark:text-amber-100">{name}! 🎉</p>
        <p className="mt-4 text-lg text-stone-600 dark:text-stone-300">
          Everyone has been secretly making something special for you. Come and see what your friends created.
        </p>
        <div className="my-6 text-6xl" aria-hidden="true">
          🎂🎈🎁
        </div>
        <button type="button" onClick={onEnter} autoFocus className="btn-primary w-full py-3 text-lg">
          Enter the Birthday Gallery!
        </button>
      </Modal>
      <Confetti pieces={80} durationMs={4000} />
    </>
  );
}
