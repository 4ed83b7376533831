import { useState, type FormEvent } from 'react';
import { answerRiddle } from '../queries/gate.ts';
import { ApiError } from '../lib/api.ts';
import type { LoginResponse } from '../lib/session.ts';
import { Modal } from './Modal.tsx';
import { CakeIcon } from './BirthdayModal.tsx';

interface RiddleModalProps {
  /** 'How old is {name} turning?' — the name is not otherwise known before login. */
  question: string;
  onLoggedIn: (result: LoginResponse) => Promise<void>;
}

const RIDDLE_NAME = /How old is (.+?) turning\??/i;

export function RiddleModal({ question, onLoggedIn }: RiddleModalProps) {
  const [answer, setAnswer] = useState('');
  const [error, setError] = useState('');
  const [pending, setPending] = useState(false);
  const name = RIDDLE_NAME.exec(question)?.[1]?.trim();

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    setPending(true);
    setError('');
    try {
      const result = await answerRiddle(answer);
      if (!result?.success) throw new ApiError(401, 'Unauthorized', '', result?.message);
      await onLoggedIn(result);
    } catch (caught) {
      if (caught instanceof ApiError && caught.status === 401) {
        setError(
          name
            ? `Not quite right! Think about ${name}'s age in words...`
            : (caught.serverMessage ?? 'Authentication failed. Please try again.'),
        );
      } else {
        setError('Authentication failed. Please try again.');
      }
      setAnswer('');
    } finally {
      setPending(false);
    }
  }

  return (
    <Modal
      title={
        <span className="inline-flex items-center gap-2">
          <CakeIcon className="h-7 w-7 text-rose-500" />A Birthday Riddle
        </span>
      }
      opaque
      className="text-center"
    >
      <p className="mt-4 text-xl font-medium text-stone-700 dark:text-stone-200">{question}</p>
      <p className="mt-2 text-sm text-stone-500 dark:text-stone-400">Answer in words, without spaces.</p>
      {/* onSubmit shows its own failure in the form */}
      <form onSubmit={(event) => void onSubmit(event)} className="mt-6 space-y-4 text-left">
        <div>
          <label htmlFor="riddle-answer" className="field-label">
            Your answer
          </label>
          <input
            id="riddle-answer"
            type="text"
            autoComplete="off"
            autoCapitalize="none"
            data-autofocus
            value={answer}
            onChange={(event) => setAnswer(event.target.value)}
            className="field"
          />
        </div>
        {error && (
          <p role="alert" className="text-sm font-medium text-rose-600 dark:text-rose-400">
            {error}
          </p>
        )}
        <button type="submit" disabled={pending || !answer.trim()} className="btn-primary w-full py-3 text-lg">
          {pending ? 'Checking...' : 'Submit Answer'}
        </button>
      </form>
    </Modal>
  );
}
