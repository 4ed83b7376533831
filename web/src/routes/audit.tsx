import { useQuery } from '@tanstack/react-query';
import { createFileRoute, Link, useNavigate } from '@tanstack/react-router';
import { EVENT_WORDS } from '../../../contract/eventTypes.ts';
import { whoAmIOptions, type EventFilters } from '../queries/audit.ts';
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

/**
 * What the console shows, in its address, so a copied link opens the same view (decision 124): the
 * tab, the item of the timeline (`kind`, `id`), the event stream's filters (`kind`, `type`, `actor`,
 * `since`, `until`) and the time slider's seq (`at`). Anything not valid is left out, never an error.
 */
export interface AuditSearch extends Omit<EventFilters, 'kind'> {
  tab?: Tab;
  /** one of the three kinds (the stream's filter, or the timeline's item) */
  kind?: string;
  id?: number;
  at?: number;
}

const positive = (value: unknown, least: number) => {
  const n = Number(value);
  return value !== undefined && value !== '' && Number.isInteger(n) && n >= least ? n : undefined;
};
const instant = (value: unknown) =>
  typeof value === 'string' && !Number.isNaN(Date.parse(value)) ? new Date(value).toISOString() : undefined;

export function validateAuditSearch(search: Record<string, unknown>): AuditSearch {
  const tab = TABS.find((t) => t.id === search.tab)?.id;
  const kind = isKind(search.kind) ? search.kind : undefined;
  const type = typeof search.type === 'string' && search.type in EVENT_WORDS ? search.type : undefined;
  const actor = typeof search.actor === 'string' ? search.actor.trim().slice(0, 60) || undefined : undefined;
  const found = { tab, kind, id: positive(search.id, 1), type, actor, since: instant(search.since) };
  // every key named, undefined too: the router keeps a raw value of a key the route leaves out
  return { ...found, until: instant(search.until), at: positive(search.at, 0) };
}

export const Route = createFileRoute('/audit')({
  validateSearch: validateAuditSearch,
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
  const navigate = useNavigate({ from: '/audit' });
  const tab = search.tab ?? (search.kind && search.id ? 'timeline' : 'events');
  const { kind, type, actor, since, until } = search;
  const filters: EventFilters = { kind: kind as EventFilters['kind'], type, actor, since, until };
  return (
    <div className="mx-auto max-w-6xl space-y-6 px-4 py-10 sm:px-6">
      <StaffHeader title="Audit">Every change, who made it and when, checked link by link. Read only.</StaffHeader>
      <ChainStatus />
      <nav aria-label="Audit views" className="flex flex-wrap gap-2">
        {TABS.map((t) => (
          <Link
            key={t.id}
            to="/audit"
            search={
              t.id === 'timeline'
                ? { tab: t.id, kind: search.kind, id: search.id }
                : t.id === 'travel'
                  ? { tab: t.id, at: search.at }
                  : { tab: t.id, ...filters }
            }
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
      {tab === 'events' && (
        <EventStream filters={filters} onFilters={(next) => void navigate({ search: { tab: 'events', ...next } })} />
      )}
      {tab === 'timeline' && <ItemTimeline kind={search.kind} id={search.id} />}
      {tab === 'travel' && (
        <TimeSlider
          initialAt={search.at}
          onAt={(at) => void navigate({ search: (prev) => ({ ...prev, tab: 'travel', at }), replace: true })}
        />
      )}
      {admin && <ErasePanel />}
    </div>
  );
}
