import type pg from 'pg';
import type { DomainEvent } from '#events/catalog.ts';
import { resolvePersonal, type Personal } from '#events/personal.ts';
import type { RecordedEvent } from '#events/store.ts';
import { writeLiveMessages } from '../live/outbox.ts';
import type { Projection } from '../projection.ts';
import { runsOf } from './runs.ts';
import { artworkStatements } from './statements/artworks.ts';
import { engagementStatements } from './statements/engagement.ts';
import { mediaStatements } from './statements/media.ts';
import { muralStatements } from './statements/mural.ts';
import { showStatements } from './statements/show.ts';
import type { Change, Row, Statement } from './statements/statement.ts';
import { storyStatements } from './statements/stories.ts';
import { subjectStatements } from './statements/subjects.ts';

const statements: Partial<Record<DomainEvent['type'], Statement>> = {
  ...artworkStatements,
  ...storyStatements,
  ...mediaStatements,
  ...engagementStatements,
  ...showStatements,
  ...muralStatements,
  ...subjectStatements,
} as Partial<Record<DomainEvent['type'], Statement>>;

/** What open screens hear of an event: what its statement declares beside its SQL. */
const heardOf = (event: RecordedEvent): Change[] => statements[event.type]?.heard(event) ?? [];

/**
 * One statement per run (runs.ts gathers a type across items): a batch of thousands costs a few round
 * trips, which keeps the catalog close behind the log and a rebuild fast (decision 027).
 */
async function applyRun(run: RecordedEvent[], db: pg.PoolClient, personalOf: (e: RecordedEvent) => Personal) {
  const statement = statements[run[0]!.type]!;
  let rows = run.map((e) => statement.row(e, personalOf(e))).filter((r): r is Row => r !== null);
  if (rows.length === 0) return;
  if (statement.lastPerItem) rows = [...new Map(rows.map((r) => [r.id, r])).values()];
  await db.query(statement.sql, [JSON.stringify(rows)]);
}

/**
 * Every submitted item with its moderation state, counters, comments and likes: the gallery, the
 * detail pages and the admin lists all read it.
 */
export const catalogProjection: Projection = {
  name: 'catalog',
  canHandle: Object.keys(statements) as Array<DomainEvent['type']>,
  tables: [
    'catalog_items',
    'catalog_comments',
    'catalog_likes',
    'catalog_show',
    'catalog_mural',
    'catalog_mural_strokes',
  ],
  rebuildable: true,
  async apply(events, db) {
    // names and free text are read from personal data as they stand now (docs/decisions/050)
    const personalOf = await resolvePersonal(db, events);
    for (const run of runsOf(events)) await applyRun(run, db, personalOf);
  },
  // what screens hear, in the same transaction as the rows above: each statement declares it beside
  // its SQL (`heard`), and the outbox writes it (projections/live/)
  live: writeLiveMessages(heardOf),
};
