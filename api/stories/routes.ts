import { Router } from 'express';
import { z } from 'zod';
import { nextId } from '#db/ids.ts';
import { handleCommand } from '#events/handle.ts';
import { storyDecider, storyStream } from '#events/stories/story.ts';
import { findItem, findItemAt, listVisible, toView } from '#projections/catalog/items.ts';
import { isAdmin } from '../auth/middleware.ts';
import type { Deps } from '../deps.ts';
import { idParam, metadataFor } from '../http/context.ts';
import { notFound, parseInput } from '../http/errors.ts';
import { emailField, storyFields } from '../http/fields.ts';
import { atLogPosition } from '../http/logPosition.ts';
import { readYourWrites } from '../http/readYourWrites.ts';

/** Spec §5 story schema, with its messages; CONTRACT: title, author and email up to 255 characters. */
export const StorySubmission = z
  .object({
    ...storyFields,
    email: emailField('Please enter a valid email address').nullish(),
    isAnonymous: z.boolean({ error: 'isAnonymous must be true or false' }).optional().default(false),
  })
  // an anonymous story needs no contact details: its form disables name and email (spec §2)
  .refine((s) => s.isAnonymous || !!s.email, { message: 'Please enter a valid email address', path: ['email'] });

export function storyRoutes(deps: Deps) {
  const router = Router();
  const { pool, store } = deps;

  router.get('/stories', async (req, res) => {
    const viewer = { admin: isAdmin(req) };
    res.json((await listVisible(pool, 'story', viewer)).map((r) => toView(r, viewer)));
  });

  router.post('/stories', async (req, res) => {
    const input = parseInput(StorySubmission, req.body);
    const metadata = await metadataFor(req, deps);
    const storyId = await nextId(pool, 'story_ids');
    const { lastPosition } = await store.transaction(async (tx) => {
      const stream = storyStream(storyId);
      // anonymous work belongs to no one: erasing its writer leaves it, with nothing to link it to them
      const subjectId = input.isAnonymous ? null : await deps.personal.subjectFor(req.session!.visitorId, tx);
      const owner = { stream, subjectId };
      // its sender may still see, edit and withdraw it, anonymous or not (decision 087)
      await deps.personal.recordSender(stream, req.session!.visitorId, tx);
      const emailRef = input.email ? await deps.personal.recordEmail(input.email, tx, owner) : null;
      const { title, content } = input;
      // an anonymous story's name is never recorded: it reads 'Anonymous'
      const authorName = input.isAnonymous ? null : input.authorName;
      const refs = await deps.personal.recordTexts({ title, content, authorName }, owner, tx);
      return handleCommand(
        store,
        stream,
        storyDecider,
        {
          type: 'SubmitStory',
          now: metadata.now,
          data: { storyId, ...refs, emailRef, isAnonymous: input.isAnonymous },
        },
        metadata,
        { tx },
      );
    });
    // the submitter sees their pending story as a guest would: without the email
    await readYourWrites(deps, res, lastPosition);
    const row = await findItem(pool, 'story', storyId, { admin: true });
    res.status(201).json(row ? toView(row, { admin: false }) : { id: storyId, status: 'pending' });
  });

  router.get('/stories/:id', async (req, res) => {
    const id = idParam(req.params.id);
    const viewer = { admin: isAdmin(req) };
    const found = id && (await findItemAt(pool, 'story', id, viewer));
    if (!found) throw notFound('Story');
    atLogPosition(res, found.position).json(toView(found.row, viewer));
  });

  return router;
}
