import { useQuery } from '@tanstack/react-query';
import { createFileRoute, Link } from '@tanstack/react-router';
import { mineQueryOptions } from '../queries/mine.ts';
import { PageHeader } from './-components/submit/FormSection.tsx';
import { ContributionCard } from './-components/mine/ContributionCard.tsx';

export const Route = createFileRoute('/mine')({
  component: MinePage,
});

/** "Your contributions" (CONTRACT §11): what this browser sent, what became of it, edit and withdraw. */
function MinePage() {
  const mine = useQuery(mineQueryOptions());
  return (
    <main className="mx-auto max-w-3xl px-4 py-10 sm:px-6 sm:py-14">
      <PageHeader title="Your contributions">
        Everything you sent from this browser, and what became of it. You can fix a pending one, or take any back.
      </PageHeader>
      {mine.isPending ? (
        <ul aria-label="Loading your contributions" className="space-y-4">
          {[0, 1, 2].map((n) => (
            <li key={n} className="card h-28 animate-pulse bg-amber-100/40 dark:bg-stone-800/40" />
          ))}
        </ul>
      ) : mine.isError ? (
        <p role="alert" className="card p-6 text-center text-rose-700 dark:text-rose-300">
          Your contributions could not be loaded: {mine.error.message}
        </p>
      ) : mine.data.items.length === 0 ? (
        <div className="card p-10 text-center">
          <p className="font-display text-xl text-stone-800 dark:text-amber-50">Nothing sent yet.</p>
          <p className="mt-2 text-stone-600 dark:text-stone-400">
            What you share from this browser shows up here, with where it stands.
          </p>
          <div className="mt-6 flex flex-wrap justify-center gap-3">
            <Link to="/create" className="btn-primary">
              Begin Creating
            </Link>
            <Link to="/submit-story" className="btn-secondary">
              Tell a Story
            </Link>
          </div>
        </div>
      ) : (
        <ul aria-label="Your contributions" className="space-y-4">
          {mine.data.items.map((item) => (
            <li key={`${item.kind}-${item.id}`}>
              <ContributionCard item={item} />
            </li>
          ))}
        </ul>
      )}
    </main>
  );
}
