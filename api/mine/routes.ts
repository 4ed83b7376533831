import { Router, type Request } from 'express';
import { z } from 'zod';
import type { MineAnswer } from '#contract/mine.ts';
import { findContribution, isSender, listContributions } from '#projections/catalog/contributions.ts';
import type { Kind } from '#projections/catalog/items.ts';
import type { Deps } from '../deps.ts';
import { idParam, metadataFor } from '../http/context.ts';
import { HttpError, notFound, parseInput } from '../http/errors.ts';
import { artistName, namedText, storyFields } from '../http/fields.ts';
import { readYourWrites } from '../http/readYourWrites.ts';
import { KIND_NAMES, KINDS } from '../kinds.ts';
import { editContribution, withdrawContribution } from './commands.ts';

/** The words a sender may change, with the submission forms' own messages (spec §5). */
const WorkEdit = z
  .object({
    title: namedText('Title', 255),
    description: namedText('Description', 5000),
    tags: namedText('Tags', 1000),
    artistName,
  })
  .partial()
  .strict();
const StoryEdit = z.object(storyFields).partial().strict();

const NOTHING = 'Send at least one of the fields to change';

/** The item a `/mine/{kind}/{id}` path names; 404 in the kind's words for one this browser did not send. */
async function senderItem(deps: Deps, req: Request): Promise<{ kind: Kind; id: number }> {
  const kind = req.params.kind as Kind;
  if (!KIND_NAMES.includes(kind)) {
    throw new HttpError(404, 'Kind must be artwork, story or media', {
      errors: [{ path: 'kind', message: 'Kind must be artwork, story or media' }],
    });
  }
  const id = idParam(req.params.id as string);
  if (!id || !(await isSender(deps.pool, req.session!.visitorId, kind, id))) throw notFound(KINDS[kind].label);
  return { kind, id };
}

/** "Your contributions" (CONTRACT §11): what this browser sent, its edits while pending, its withdrawals. */
export function mineRoutes(deps: Deps) {
  const router = Router();

  router.get('/mine', async (req, res) => {
    const answer: MineAnswer = { items: await listContributions(deps.pool, req.session!.visitorId) };
    res.json(answer);
  });

  router.patch('/mine/:kind/:id', async (req, res) => {
    const { kind, id } = await senderItem(deps, req);
    const raw = (req.body ?? {}) as Record<string, unknown>;
    const input: Record<string, string | null | undefined> = parseInput(kind === 'story' ? StoryEdit : WorkEdit, raw);
    const given = Object.keys(input).filter((k) => Object.hasOwn(raw, k));
    if (given.length === 0) throw new HttpError(400, NOTHING, { errors: [{ path: '', message: NOTHING }] });
    const before = await findContribution(deps.pool, req.session!.visitorId, kind, id);
    if (!before) throw notFound(KINDS[kind].label);
    if (!before.text) throw new HttpError(409, `${KINDS[kind].label} was already withdrawn`, { status: before.status });
    if (kind === 'story' && before.text.isAnonymous && given.includes('authorName')) {
      const message = 'An anonymous story has no name to change';
      throw new HttpError(400, message, { errors: [{ path: 'authorName', message }] });
    }
    // the words not sent stay as they are; an anonymous story's name is never recorded
    const current = before.text as unknown as Record<string, unknown>;
    const fields =
      kind === 'story' ? ['title', 'content', 'authorName'] : ['title', 'description', 'tags', 'artistName'];
    const texts: Record<string, string | null> = {};
    for (const field of fields) {
      const value = given.includes(field) ? input[field] : current[field];
      texts[field] = typeof value === 'string' ? value : null;
    }
    if (kind === 'story' && before.text.isAnonymous) texts.authorName = null;
    const metadata = await metadataFor(req, deps);
    const position = await editContribution(deps, kind, id, texts, metadata);
    await readYourWrites(deps, res, position);
    const after = await findContribution(deps.pool, req.session!.visitorId, kind, id);
    res.json(after);
  });

  router.delete('/mine/:kind/:id', async (req, res) => {
    const { kind, id } = await senderItem(deps, req);
    const metadata = await metadataFor(req, deps);
    const position = await withdrawContribution(deps, kind, id, metadata);
    await readYourWrites(deps, res, position);
    const after = await findContribution(deps.pool, req.session!.visitorId, kind, id);
    res.json(after ?? { kind, id, status: 'withdrawn' });
  });

  return router;
}
