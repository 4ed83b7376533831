import { useQuery } from '@tanstack/react-query';
import { createFileRoute, Link } from '@tanstack/react-router';
import { whoAmIOptions } from '../queries/audit.ts';
import { isKind } from '../queries/itemKinds.ts';
import { StaffHeader } from '../components/StaffHeader.tsx';
import { ChainStatus } from './-components/audit/ChainStatus.tsx';
import { ErasePanel } from './-components/audit/ErasePanel.tsx';
import { EventStream } from './-components/audit/EventStream.tsx';
import { ItemTimeline } from './-components/audit/ItemTimeline.tsx';
import { TimeSlider } from './-components/audit/TimeSlider.tsx';

type Tab = 'events' | 'timeline' | 'travel';
const TABS: { id: Tab; label: string }[] = [
  { id: 'events', label: 'Event stream' },
  { id: 'timeline', label: 'Item timeline' },
  { id: 'travel', label: 'Time travel' },
];

export interface AuditSearch {
  tab?: Tab;
  kind?: string;
  id?: number;
}

export const Route = createFileRoute('/audit')({
  validateSearch: (search: Record<string, unknown>): AuditSearch => {
    const tab = TABS.find((t) => t.id === search.tab)?.id;
    const kind = isKind(search.kind) ? search.kind : undefined;
    const id = Number(search.id);
    return { tab, kind, id: Number.isInteger(id) && id > 0 ? id : undefined };
  },
  component: AuditPage,
});

function AuditPage() {
  const who = useQuery(whoAmIOptions());
  const role = who.data?.userType;
  if (who.isPending) return null;
  if (role !== 'admin' && role !== 'auditor') {
    return (
      <div className="mx-auto max-w-xl px-4 py-24 text-center">
        <h1 className="font-display text-3xl font-bold text-stone-900 dark:text-amber-50">Audit Access Required</h1>
        <p className="mt-3 text-stone-600 dark:text-stone-400">
          Log in with the admin or auditor password to read the event history.
        </p>
        <Link to="/gallery" className="btn-primary mt-8">
          Back to Gallery
        </Link>
      </div>
    );
  }
  return <AuditConsole admin={role === 'admin'} />;
}

function AuditConsole({ admin }: { admin: boolean }) {
  const search = Route.useSearch();
  const tab = search.tab ?? (search.kind && search.id ? 'timeline' : 'events');
  return (
    <div className="mx-auto max-w-6xl space-y-6 px-4 py-10 sm:px-6">
      <StaffHeader title="Audit">Every change, who made it and when, checked link by link. Read only.</StaffHeader>
      <ChainStatus />
      <nav aria-label="Audit views" className="flex flex-wrap gap-2">
        {TABS.map((t) => (
          <Link
            key={t.id}
            to="/audit"
            search={t.id === 'timeline' ? { tab: t.id, kind: search.kind, id: search.id } : { tab: t.id }}
            aria-current={tab === t.id ? 'page' : undefined}
            className={`rounded-full px-4 py-2 text-sm font-semibold transition ${
              tab === t.id
                ? 'bg-stone-900 text-amber-50 dark:bg-amber-100 dark:text-stone-900'
                : 'bg-white/80 text-stone-700 hover:bg-amber-100 dark:bg-stone-900/80 dark:text-stone-200 dark:hover:bg-stone-800'
            }`}
          >
            {t.label}
          </Link>
        ))}
      </nav>
      {tab === 'events' && <EventStream />}
      {tab === 'timeline' && <ItemTimeline kind={search.kind} id={search.id} />}
      {tab === 'travel' && <TimeSlider />}
      {admin && <ErasePanel />}
    </div>
  );
}
