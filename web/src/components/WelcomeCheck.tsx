import { lazy, Suspense, useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { tributeQueryOptions } from '../queries/tribute.ts';
import { hasAgreedToWelcome, storeWelcomeAgreed } from '../lib/session.ts';
import { formatDay, isBeforeCutoff } from '../lib/tributeDates.ts';

// Only visitors before the cutoff see it: the modal (and the dialog code under it) loads when it shows.
const WelcomeModal = lazy(() => import('./WelcomeModal.tsx').then((module) => ({ default: module.WelcomeModal })));

/** Shows the welcome modal until the cutoff, or until the visitor has agreed once. */
export function WelcomeCheck() {
  const tribute = useQuery(tributeQueryOptions());
  const [agreed, setAgreed] = useState(hasAgreedToWelcome);

  if (agreed || !tribute.data || !isBeforeCutoff(tribute.data.welcomeCutoff)) return null;
  return (
    <Suspense fallback={null}>
      <WelcomeModal
        name={tribute.data.name}
        revealDay={formatDay(tribute.data.celebrationStart)}
        onAgree={() => {
          storeWelcomeAgreed();
          setAgreed(true);
        }}
      />
    </Suspense>
  );
}
