import { Router } from 'express';
import { z } from 'zod';
import { Emoji } from '#events/show/show.ts';
import { readShowAnswer } from '#projections/catalog/show.ts';
import { isSubmission, MONTAGE_ITEM, MURAL_ITEM } from '#contract/live.ts';
import { isAdmin, requireRole } from '../auth/middleware.ts';
import type { Deps } from '../deps.ts';
import { idParam, metadataFor } from '../http/context.ts';
import { notFound, parseInput } from '../http/errors.ts';
import { readYourWrites } from '../http/readYourWrites.ts';
import { KIND_NAMES, KINDS } from '../kinds.ts';
import { driveShow } from './driveShow.ts';
import { VisibleItems } from './visibleItems.ts';

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
        kind: z.enum([...KIND_NAMES, MURAL_ITEM.kind, MONTAGE_ITEM.kind], {
          error: 'Kind must be artwork, story, media, mural or montage',
        }),
        // the mural and the montage are one each: their id may be left out (decisions 046, 125)
        id: z.number({ error: 'Id is required' }).int().positive('Id is required').optional(),
      })
      .refine((i) => !isSubmission({ kind: i.kind, id: 1 }) || i.id !== undefined, {
        error: 'Id is required',
        path: ['id'],
      }),
  ],
  { error: 'Action must be start, next, prev, pause, resume, goto, queue or stop' },
);

const ReactionInput = z.object({
  emoji: z.enum(Emoji.options, { error: 'Reaction must be one of 👏 ❤️ 😂 😮 🎉 🙏' }),
});

/** The show (CONTRACT §7): the admin drives it, everyone reads it, the room reacts. */
export function showRoutes(deps: Deps) {
  const router = Router();
  const reactable = new VisibleItems(deps.pool);

  router.get('/show', async (_req, res) => {
    res.json(await readShowAnswer(deps.pool));
  });

  router.post('/show', requireRole('admin'), async (req, res) => {
    const input = parseInput(ShowInput, req.body);
    const position = await driveShow(deps, input, () => metadataFor(req, deps));
    await readYourWrites(deps, res, position);
    res.json(await readShowAnswer(deps.pool));
  });

  for (const kind of KIND_NAMES) {
    router.post(`/${KINDS[kind].path}/:id/reactions`, async (req, res) => {
      const { emoji } = parseInput(ReactionInput, req.body);
      const id = idParam(req.params.id as string);
      if (!id || !(await reactable.has(kind, id, { admin: isAdmin(req) }))) throw notFound(KINDS[kind].label);
      deps.reactions.tap(kind, id, emoji);
      res.status(202).json({ accepted: true });
    });
  }

  return router;
}
