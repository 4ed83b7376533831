import type pg from 'pg';
import type { DomainEvent, LegacyEvent } from '#events/catalog.ts';
import { likeStream } from '#events/engagement/engagement.ts';
import { EventStore } from '#events/store.ts';
import { projections } from '#projections/index.ts';
import { ProjectionRunner } from '#projections/runner.ts';
import { log } from '#api/observability/logger.ts';
import { catalogLag, lagTable } from './support.ts';
import { systemClock } from '#api/time.ts';

const RATE = Number(process.env.BENCH_RATE ?? 1000);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 5) * 2;
/** at the same rate before the measured seconds: the pool opens its connections, the JIT warms */
const WARM_UP_SECONDS = 2;
const TICK_MS = 5;

const metadata = () => ({ role: 'guest' as const, visitorId: crypto.randomUUID(), now: new Date().toISOString() });

/**
 * Projection lag at a steady rate, not at saturation: RATE events a second, in even ticks, for
 * WARM_UP_SECONDS and then SECONDS; each one's time from `append()` returning to the catalog having
 * committed it, the warm-up's events and the steady ones apart. The mix of a reveal: most events
 * are likes (of 200 approved items), some submissions.
 */
export async function benchSteadyLag(pool: pg.Pool) {
  const store = new EventStore(pool);
  const now = new Date().toISOString();
  const ITEMS = 200;
  for (let id = 1; id <= ITEMS; id++) {
    await store.append(
      `story-${id}`,
      0,
      [
        {
          type: 'StorySubmitted',
          schemaVersion: 1,
          data: {
            storyId: id,
            title: null,
            content: `Memory ${id}`,
            authorName: 'Bench',
            emailRef: null,
            isAnonymous: false,
            submittedAt: now,
          },
        },
        { type: 'StoryApproved', data: { storyId: id, adminNotesRef: null, approvedAt: now } },
      ],
      metadata(),
    );
  }
  const runner = new ProjectionRunner(store, projections, log.child({ component: 'projection runner' }), systemClock);
  await runner.start();
  await runner.wake();

  const { appendedAt, lagOf, settle } = catalogLag(runner);

  let nextStory = ITEMS + 1;
  let visitor = 0;
  const event = (i: number): { stream: string; events: Array<DomainEvent | LegacyEvent> } => {
    if (i % 20 === 0) {
      const id = nextStory++;
      return {
        stream: `story-${id}`,
        events: [
          {
            type: 'StorySubmitted',
            schemaVersion: 1,
            data: {
              storyId: id,
              title: null,
              content: `A new memory ${id}`,
              authorName: 'Bench',
              emailRef: null,
              isAnonymous: false,
              submittedAt: now,
            },
          },
        ],
      };
    }
    const itemId = 1 + (i % ITEMS);
    const visitorKey = `v${visitor++}`;
    return {
      stream: likeStream('story', itemId, visitorKey),
      events: [{ type: 'ItemLiked', data: { kind: 'story', itemId, visitorKey } }],
    };
  };

  let sent = 0;
  let failed = 0;
  const pending: Promise<void>[] = [];
  const warmUp = new Set<number>();
  const started = performance.now();
  const warmUpCount = RATE * WARM_UP_SECONDS;
  const total = warmUpCount + RATE * SECONDS;
  let steadyFrom = started;
  while (sent < total) {
    const due = Math.min(total, Math.floor(((performance.now() - started) / 1000) * RATE));
    for (; sent < due; sent++) {
      if (sent === warmUpCount) steadyFrom = performance.now();
      const { stream, events } = event(sent);
      const inWarmUp = sent < warmUpCount;
      pending.push(
        store.append(stream, 0, events, metadata()).then(
          ({ positions }) => {
            appendedAt.set(positions.at(-1)!, performance.now());
            if (inWarmUp) warmUp.add(positions.at(-1)!);
          },
          () => void failed++,
        ),
      );
    }
    await new Promise((r) => setTimeout(r, TICK_MS));
  }
  await Promise.all(pending);
  const achieved = (total - warmUpCount) / ((performance.now() - steadyFrom) / 1000);
  await settle();
  const steady: number[] = [];
  const first: number[] = [];
  for (const [position, lag] of lagOf) (warmUp.has(position) ? first : steady).push(lag);
  const [header, rule, warmUpRow] = lagTable(first);
  const steadyRow = lagTable(steady)[2]!;
  return [
    `### Projection lag at a steady ${RATE.toLocaleString('en')} events/s (${SECONDS} s after ${WARM_UP_SECONDS} s of warm-up; likes, submissions)`,
    '',
    `From each \`append()\` returning to the catalog's commit of that event, with the runner (chain sealer and catalog, decision 056) in the benchmark process, on a database started for this bench. The first ${WARM_UP_SECONDS} s run at the same rate while the pool opens its connections; their events are shown apart. Achieved rate ${achieved.toFixed(0)} events/s; events measured ${steady.length + first.length} of ${appendedAt.size}; failed appends ${failed}.`,
    '',
    `| | ${header!.slice(2)}`,
    `|---${rule!}`,
    `| the ${SECONDS} s measured ${steadyRow}`,
    `| the ${WARM_UP_SECONDS} s of warm-up before them ${warmUpRow!}`,
  ].join('\n');
}
