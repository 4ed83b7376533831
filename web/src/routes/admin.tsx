import { useState, type KeyboardEvent } from 'react';
import { useQuery } from '@tanstack/react-query';
import { createFileRoute, Link } from '@tanstack/react-router';
import { adminQueueQueryOptions, pendingArtworksQueryOptions } from '../queries/admin.ts';
import { useWaitingInTitle } from '../lib/pageTitle.ts';
import { getSession, useSession } from '../lib/session.ts';
import { StaffHeader } from '../components/StaffHeader.tsx';
import { PendingArtworks } from './-components/admin/PendingArtworks.tsx';
import { ArchivedArtworks } from './-components/admin/ArchivedArtworks.tsx';
import { PendingStories } from './-components/admin/PendingStories.tsx';
import { PendingMedia } from './-components/admin/PendingMedia.tsx';
import { MontagePanel } from './-components/admin/MontagePanel.tsx';
import { KeepsakeDownloads } from './-components/admin/KeepsakeDownloads.tsx';
import { QueueShortcuts } from './-components/admin/QueueShortcuts.tsx';
import { ArrivalSound } from './-components/admin/ArrivalSound.tsx';

export const Route = createFileRoute('/admin')({
  loader: ({ context }) => {
    if (!getSession().admin) return;
    void context.queryClient.prefetchQuery(adminQueueQueryOptions());
    void context.queryClient.prefetchQuery(pendingArtworksQueryOptions());
  },
  component: AdminPage,
});

type Tab = 'artworks' | 'stories' | 'media' | 'archived';

function AdminPage() {
  const session = useSession();
  if (!session.admin) {
    return (
      <div className="mx-auto max-w-xl px-4 py-24 text-center">
        <h1 className="font-display text-3xl font-bold text-stone-900 dark:text-amber-50">Admin Access Required</h1>
        <p className="mt-3 text-stone-600 dark:text-stone-400">Log in with the admin password to review submissions.</p>
        <Link to="/gallery" className="btn-primary mt-8">
          Back to Gallery
        </Link>
      </div>
    );
  }
  return <ReviewPanel />;
}

function ReviewPanel() {
  const [tab, setTab] = useState<Tab>('artworks');
  const queue = useQuery(adminQueueQueryOptions());
  const counts = queue.data;
  const waiting = counts && counts.pending.artworks + counts.pending.stories + counts.pending.media;
  useWaitingInTitle(waiting);

  const tabs: { id: Tab; label: string; count: number | undefined }[] = [
    { id: 'artworks', label: 'Artworks', count: counts?.pending.artworks },
    { id: 'stories', label: 'Stories', count: counts?.pending.stories },
    { id: 'media', label: 'Media', count: counts?.pending.media },
    { id: 'archived', label: 'Archived', count: counts?.archived },
  ];

  // Arrow keys move between tabs (WAI-ARIA tabs pattern); Tab goes on into the panel.
  function onTabKey(event: KeyboardEvent<HTMLButtonElement>) {
    const step = { ArrowRight: 1, ArrowDown: 1, ArrowLeft: -1, ArrowUp: -1 }[event.key];
    if (!step) return;
    event.preventDefault();
    const index = tabs.findIndex((entry) => entry.id === tab);
    const next = tabs[(index + step + tabs.length) % tabs.length]!.id;
    setTab(next);
    document.getElementById(`tab-${next}`)?.focus();
  }

  return (
    <div className="mx-auto max-w-6xl px-4 py-10 sm:px-6">
      <StaffHeader title="Admin Panel" className="mb-8">
        Review submissions before they appear in the gallery.
      </StaffHeader>
      {queue.isError && (
        <p role="alert" className="mb-4 text-sm text-rose-600 dark:text-rose-400">
          {queue.error.message}
        </p>
      )}

      <div role="tablist" aria-label="Review queues" className="mb-6 flex flex-wrap gap-2">
        {tabs.map(({ id, label, count }) => (
          <button
            key={id}
            id={`tab-${id}`}
            type="button"
            role="tab"
            onKeyDown={onTabKey}
            aria-selected={tab === id}
            aria-controls={`panel-${id}`}
            tabIndex={tab === id ? 0 : -1}
            onClick={() => setTab(id)}
            className={`inline-flex items-center gap-2 rounded-full px-5 py-2 font-semibold transition ${
              tab === id
                ? 'bg-gradient-to-r from-amber-500 to-rose-500 text-white shadow-md'
                : 'bg-white/80 text-stone-600 hover:bg-amber-100 dark:bg-stone-900 dark:text-stone-300 dark:hover:bg-stone-800'
            }`}
          >
            {label}{' '}
            <span
              className={`rounded-full px-2 py-0.5 text-xs ${tab === id ? 'bg-white/25' : 'bg-amber-100 dark:bg-stone-800'}`}
            >
              {count ?? '–'}
            </span>
          </button>
        ))}
      </div>

      <div className="-mt-2 mb-6 flex flex-wrap items-start gap-x-6 gap-y-2">
        <QueueShortcuts panelId={`panel-${tab}`} />
        <ArrivalSound waiting={waiting} />
      </div>

      <div role="tabpanel" id={`panel-${tab}`} aria-labelledby={`tab-${tab}`} tabIndex={-1} className="outline-none">
        {tab === 'artworks' && <PendingArtworks />}
        {tab === 'archived' && <ArchivedArtworks />}
        {tab === 'stories' && <PendingStories />}
        {tab === 'media' && <PendingMedia />}
      </div>
      <MontagePanel />
      <KeepsakeDownloads />
    </div>
  );
}
