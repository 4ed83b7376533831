import { Router } from 'express';
import { z } from 'zod';
import { handleCommand } from '#events/handle.ts';
import { Emoji, SHOW_STREAM, showDecider, type ShowCommand, type ShowItem } from '#events/show/show.ts';
import { findItem, type Kind } from '#projections/catalog/items.ts';
import { MURAL_ITEM, type ShowItemRef, type ShowState } from '#contract/live.ts';
import { isAdmin, requireRole } from '../auth/middleware.ts';
import type { Deps } from '../deps.ts';
import { idParam, metadataFor } from '../http/context.ts';
import { notFound, parseInput } from '../http/errors.ts';
import { readYourWrites } from '../http/readYourWrites.ts';
import { KIND_NAMES, KINDS } from '../kinds.ts';
import { dateIn } from '../time.ts';
import { ReactionCounter } from './reactions.ts';
import { VisibleItems } from './visibleItems.ts';

/** How many of the items to come `GET /api/show` lists. */
const UP_NEXT = 10;

const ShowInput = z.discriminatedUnion(
  'action',
  [
    z.object({ action: z.enum(['start', 'pause', 'resume', 'stop']) }),
    z.object({
      action: z.enum(['next', 'prev']),
      // the index the presenter saw: pressed twice, the move is made once
      from: z
        .number({ error: 'from must be an index' })
        .int('from must be an index')
        .min(0, 'from must be an index')
        .optional(),
    }),
    z
      .object({
        action: z.enum(['goto', 'queue']),
        kind: z.enum([...KIND_NAMES, MURAL_ITEM.kind], { error: 'Kind must be artwork, story, media or mural' }),
        // the mural is one: its id may be left out (decision 046)
        id: z.number({ error: 'Id is required' }).int().positive('Id is required').optional(),
      })
      .refine((i) => i.kind === MURAL_ITEM.kind || i.id !== undefined, { error: 'Id is required', path: ['id'] }),
  ],
  { error: 'Action must be start, next, prev, pause, resume, goto, queue or stop' },
);

const ReactionInput = z.object({
  emoji: z.enum(Emoji.options, { error: 'Reaction must be one of 👏 ❤️ 😂 😮 🎉 🙏' }),
});

/** The show as the catalog holds it, with the catalog position it reflects (one snapshot). */
async function showAnswer(deps: Deps) {
  const { rows } = await deps.pool.query<{
    state: ShowState | null;
    items: ShowItemRef[] | null;
    idx: number | null;
    position: string;
  }>(
    `SELECT s.state, s.items, s.idx, catalog_position() AS position
     FROM (SELECT 1) one LEFT JOIN catalog_show s ON s.id = 1`,
  );
  const row = rows[0]!;
  const position = Number(row.position);
  if (!row.state || row.state === 'idle') {
    return { state: 'idle' as const, current: null, index: 0, total: 0, upNext: [], position };
  }
  const items = row.items ?? [];
  const index = row.idx ?? 0;
  return {
    state: row.state,
    current: items[index] ?? null,
    index,
    total: items.length,
    upNext: (await stillThere(deps, items.slice(index + 1))).slice(0, UP_NEXT),
    position,
  };
}

/** Of the deck's items, those the catalog still holds: a withdrawn or deleted one is skipped (decision 089). */
async function stillThere(deps: Deps, items: ShowItemRef[]): Promise<ShowItemRef[]> {
  const submissions = items.filter((i) => i.kind !== MURAL_ITEM.kind);
  if (submissions.length === 0) return items;
  const { rows } = await deps.pool.query<{ kind: string; id: number }>(
    `SELECT kind, id::int AS id FROM catalog_items WHERE (kind, id) IN (SELECT * FROM unnest($1::text[], $2::bigint[]))`,
    [submissions.map((i) => i.kind), submissions.map((i) => i.id)],
  );
  const held = new Set(rows.map((r) => `${r.kind}-${r.id}`));
  return items.filter((i) => i.kind === MURAL_ITEM.kind || held.has(`${i.kind}-${i.id}`));
}

/** Every approved item in the reveal's order (the gallery's order of the day), as the show's list. */
async function deck(deps: Deps): Promise<ShowItem[]> {
  const { rows } = await deps.pool.query<ShowItem>(
    `SELECT c.kind, c.id::int AS id FROM catalog_items c
     WHERE c.status = 'approved' AND NOT c.archived
     ORDER BY md5($1 || ':' || c.kind || ':' || c.id), c.kind, c.id`,
    [dateIn(deps.config.timeZone)],
  );
  return rows;
}

/** The show (CONTRACT §7): the admin drives it, everyone reads it, the room reacts. */
export function showRoutes(deps: Deps) {
  const router = Router();
  const counter = new ReactionCounter(deps.store);
  const reactable = new VisibleItems(deps.pool);

  router.get('/show', async (_req, res) => {
    res.json(await showAnswer(deps));
  });

  router.post('/show', requireRole('admin'), async (req, res) => {
    const input = parseInput(ShowInput, req.body);
    let command: ShowCommand;
    if (input.action === 'start') command = { type: 'start', items: await deck(deps) };
    else if (input.action === 'goto' || input.action === 'queue') {
      if (input.kind === MURAL_ITEM.kind) {
        // the mural can always be shown, open, locked or frozen: it is there from the start
        if ((input.id ?? MURAL_ITEM.id) !== MURAL_ITEM.id) throw notFound('Mural');
        command = { type: input.action, item: MURAL_ITEM, approved: true };
      } else command = await submissionCommand(deps, input.action, { kind: input.kind, id: input.id! });
    } else if (input.action === 'next' || input.action === 'prev') command = { type: input.action, from: input.from };
    else command = { type: input.action };
    const metadata = await metadataFor(req, deps.personal);
    const { lastPosition } = await handleCommand(deps.store, SHOW_STREAM, showDecider, command, metadata);
    await readYourWrites(deps, res, lastPosition);
    res.json(await showAnswer(deps));
  });

  for (const kind of KIND_NAMES) {
    router.post(`/${KINDS[kind].path}/:id/reactions`, async (req, res) => {
      const { emoji } = parseInput(ReactionInput, req.body);
      const id = idParam(req.params.id as string);
      if (!id || !(await reactable.has(kind, id, { admin: isAdmin(req) }))) throw notFound(KINDS[kind].label);
      counter.tap(kind, id, emoji);
      res.status(202).json({ accepted: true });
    });
  }

  return router;
}

/** Going to or queueing a submission: it must be approved and visible, or already held by the show. */
async function submissionCommand(deps: Deps, action: 'goto' | 'queue', item: ShowItem & { kind: Kind }) {
  const visible = await findItem(deps.pool, item.kind, item.id, { admin: false });
  // an item the show already holds may be gone to even if it was archived since
  if (!visible && action === 'queue') throw notFound(KINDS[item.kind].label);
  if (!visible) {
    const held = (await showAnswer(deps)).state !== 'idle' && (await isInShow(deps, item));
    if (!held) throw notFound(KINDS[item.kind].label);
  }
  return { type: action, item, approved: !!visible } satisfies ShowCommand;
}

async function isInShow(deps: Deps, item: ShowItem): Promise<boolean> {
  const { rows } = await deps.pool.query(
    `SELECT 1 FROM catalog_show WHERE id = 1 AND items @> jsonb_build_array(jsonb_build_object('kind', $1::text, 'id', $2::int))`,
    [item.kind, item.id],
  );
  return rows.length > 0;
}
