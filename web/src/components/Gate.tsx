import { useEffect, useState } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useNavigate } from '@tanstack/react-router';
import { gateQueryOptions } from '../queries/gate.ts';
import { tributeQueryOptions, type Tribute } from '../queries/tribute.ts';
import { storeSessionToken, storeSignedIn, type LoginResponse } from '../lib/session.ts';
import { isWithinWindow } from '../lib/tributeDates.ts';
import { LoadingScreen } from './LoadingScreen.tsx';
import { PasswordForm } from './PasswordForm.tsx';
import { RiddleModal } from './RiddleModal.tsx';
import { BirthdayModal } from './BirthdayModal.tsx';
import { LockIcon } from './icons.tsx';

/** The entry gate: the only thing shown until the authenticated or admin flag is stored. */
export function Gate() {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const gate = useQuery(gateQueryOptions());
  const [celebration, setCelebration] = useState<Tribute | null>(null);

  // Whatever was loaded under an earlier (now expired or ended) session must not outlive it.
  useEffect(() => {
    queryClient.removeQueries({ predicate: (query) => query.queryKey[0] !== 'gate' });
  }, [queryClient]);

  async function onLoggedIn(result: LoginResponse) {
    storeSessionToken(result.sessionToken);
    if (result.userType === 'admin') {
      await navigate({ to: '/admin' });
      storeSignedIn('admin');
      return;
    }
    // auditors read the log: their console is /audit (CONTRACT §6)
    if (result.userType === 'auditor') {
      await navigate({ to: '/audit' });
      storeSignedIn('auditor');
      return;
    }
    // Within the celebration window a guest sees the birthday modal first; the flag follows its button.
    const tribute = await queryClient.fetchQuery(tributeQueryOptions()).catch(() => null);
    if (tribute && isWithinWindow(tribute.celebrationStart, tribute.celebrationEnd)) {
      setCelebration(tribute);
      return;
    }
    storeSignedIn(result.userType ?? 'guest');
  }

  async function enterGallery() {
    // spec: the birthday modal's button opens the gallery
    await navigate({ to: '/gallery' });
    storeSignedIn('guest');
  }

  if (celebration) return <BirthdayModal name={celebration.name} onEnter={() => void enterGallery()} />;
  if (gate.isPending) return <LoadingScreen />;
  if (gate.data?.riddle) return <RiddleModal question={gate.data.riddle} onLoggedIn={onLoggedIn} />;

  return (
    <main className="flex min-h-screen items-center justify-center p-4">
      <div className="card w-full max-w-md p-8 text-center shadow-xl sm:p-10">
        <div className="mx-auto mb-5 flex h-16 w-16 items-center justify-center rounded-full bg-gradient-to-br from-amber-400 to-rose-500 text-white shadow-lg shadow-rose-500/30">
          <LockIcon className="h-7 w-7" />
        </div>
        <h1 className="font-display text-3xl font-bold text-stone-900 dark:text-amber-50">Access Required</h1>
        <p className="mt-3 text-stone-600 dark:text-stone-400">
          This is a private art gallery. Please enter the password to continue.
        </p>
        <PasswordForm onLoggedIn={onLoggedIn} />
      </div>
    </main>
  );
}
