import { useState, type FormEvent } from 'react';
import { login } from '../queries/gate.ts';
import { ApiError } from '../lib/api.ts';
import type { LoginResponse } from '../lib/session.ts';

interface PasswordFormProps {
  onLoggedIn: (result: LoginResponse) => Promise<void>;
}

export function PasswordForm({ onLoggedIn }: PasswordFormProps) {
  const [password, setPassword] = useState('');
  const [name, setName] = useState('');
  const [error, setError] = useState('');
  const [pending, setPending] = useState(false);

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    setPending(true);
    setError('');
    try {
      const result = await login(password, name);
      if (!result?.success) throw new ApiError(401, 'Unauthorized', '', result?.message);
      await onLoggedIn(result);
    } catch (caught) {
      // An answer from the server means a wrong password (or too many tries); anything else is the network.
      const rejected = caught instanceof ApiError && caught.status < 500;
      setError(
        rejected
          ? (caught.serverMessage ?? 'Incorrect password. Please try again.')
          : 'Login failed. Please try again.',
      );
      setPassword('');
    } finally {
      setPending(false);
    }
  }

  return (
    // onSubmit shows its own failure (wrong password, network) in the form
    <form onSubmit={(event) => void onSubmit(event)} className="mt-8 space-y-4 text-left">
      {/* There is no user name, but password managers and the browser expect one beside a password. */}
      <input type="text" name="username" autoComplete="username" value="tribute-gallery" readOnly hidden />
      <div>
        <label htmlFor="gate-password" className="field-label">
          Password
        </label>
        <input
          id="gate-password"
          type="password"
          autoComplete="current-password"
          // oxlint-disable-next-line jsx-a11y/no-autofocus -- the gate's one field: there is nothing else to do first
          autoFocus
          value={password}
          onChange={(event) => setPassword(event.target.value)}
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? 'gate-error' : undefined}
          className="field"
        />
      </div>
      {error && (
        <p id="gate-error" role="alert" className="text-sm font-medium text-rose-600 dark:text-rose-400">
          {error}
        </p>
      )}
      <button type="submit" disabled={pending} className="btn-primary w-full py-3 text-lg">
        {pending ? 'Logging in...' : 'Enter Gallery'}
      </button>
      <details className="text-sm text-stone-600 dark:text-stone-400">
        <summary className="cursor-pointer">Admin or auditor? Add your name</summary>
        <div className="mt-3">
          <label htmlFor="gate-name" className="field-label">
            Your name, recorded with what you change
          </label>
          <input
            id="gate-name"
            type="text"
            autoComplete="name"
            maxLength={60}
            value={name}
            onChange={(event) => setName(event.target.value)}
            className="field"
          />
        </div>
      </details>
    </form>
  );
}
