import { Router, type Request, type Response } from 'express';
import { z } from 'zod';
import { nextId } from '#db/ids.ts';
import {
  commentDecider,
  commentStream,
  likeDecider,
  likeStream,
  viewDecider,
  viewStream,
} from '#events/engagement/engagement.ts';
import { handleCommand } from '#events/handle.ts';
import { findComment, likesOf, listComments } from '#projections/catalog/engagement.ts';
import { findItem, findItemAt, type Kind } from '#projections/catalog/items.ts';
import { isAdmin } from '../auth/middleware.ts';
import type { Deps } from '../deps.ts';
import { requireAdminKey } from '../auth/adminKey.ts';
import { idParam, metadataFor } from '../http/context.ts';
import { notFound, parseInput } from '../http/errors.ts';
import { atLogPosition } from '../http/logPosition.ts';
import { readYourWrites } from '../http/readYourWrites.ts';
import { KIND_NAMES, KINDS } from '../kinds.ts';
import { Pseudonyms } from './pseudonyms.ts';

/** Spec §5 comment schema: values trimmed, a name of 2 or more, content of 1 to 500 characters. */
export const CommentInput = z.object({
  authorName: z.string({ error: 'Name is required' }).trim().min(2, 'Name is required').max(255, 'Name is too long'),
  content: z
    .string({ error: 'Comment cannot be empty' })
    .trim()
    .min(1, 'Comment cannot be empty')
    .max(500, 'Comment is too long'),
});

/** Comments and likes, the same for artworks, stories and media, with every variant spec §7 calls. */
export function engagementRoutes(deps: Deps) {
  const router = Router();
  const { pool, store, config } = deps;

  /** The item the request names, with the catalog position it reflects; 404 unless the viewer may see it. */
  async function visibleItemAt(req: Request, kind: Kind) {
    const id = idParam(req.params.id as string);
    const found = id && (await findItemAt(pool, kind, id, { admin: isAdmin(req) }));
    if (!found) throw notFound(KINDS[kind].label);
    return found;
  }
  const visibleItem = async (req: Request, kind: Kind) => (await visibleItemAt(req, kind)).row;

  const pseudonyms = new Pseudonyms(pool);

  /** The browser (or, with LIKE_IDENTITY=ip, the address) as likes and views named it before pseudonyms. */
  async function visitorKey(req: Request): Promise<string> {
    if (config.likeIdentity === 'ip') return `ip${await deps.personal.refForAddress(req.ip ?? 'unknown')}`;
    return `v${req.session!.visitorId}`;
  }

  /**
   * The visitor's key for one item and the stream it names: the per-item pseudonym (decision 050),
   * unless the visitor liked or viewed the item before pseudonyms; that stream goes on, so a like
   * stays one like and a view one view.
   */
  async function keyFor(req: Request, kind: Kind, itemId: number, streamOf: typeof likeStream) {
    const before = await visitorKey(req);
    const old = streamOf(kind, itemId, before);
    if ((await store.readStream(old)).length > 0) return { key: before, stream: old };
    const key = await pseudonyms.of(before, kind, itemId);
    return { key, stream: streamOf(kind, itemId, key) };
  }

  /** The item's like count and whether the visitor likes it now, under either key, at one catalog position. */
  async function likes(req: Request, kind: Kind, itemId: number) {
    const before = await visitorKey(req);
    return likesOf(pool, kind, itemId, [before, await pseudonyms.of(before, kind, itemId)]);
  }

  /** Likes or unlikes; answers with the count once the catalog shows the change. */
  async function setLike(req: Request, res: Response, kind: Kind, want: 'Like' | 'Unlike' | 'Toggle') {
    const item = await visibleItem(req, kind);
    const { key, stream } = await keyFor(req, kind, item.id, likeStream);
    // the log, not the read model, says whether this visitor likes the item now
    const now = await store.aggregate(stream, likeDecider.evolve, likeDecider.initial);
    const type = want === 'Toggle' ? (now.state ? 'Unlike' : 'Like') : want;
    let lastPosition = now.lastPosition;
    // a like of an item liked already (or an unlike of one not liked) writes nothing, not even an address row
    if ((type === 'Like') !== now.state) {
      const metadata = await metadataFor(req, deps);
      const target = { kind, itemId: item.id, visitorKey: key };
      ({ lastPosition } = await handleCommand(store, stream, likeDecider, { type, target }, metadata));
    }
    await readYourWrites(deps, res, lastPosition);
    const after = await findItemAt(pool, kind, item.id, { admin: true });
    if (after) atLogPosition(res, after.position);
    const likeCount = after?.row.like_count ?? item.like_count;
    const liked = type === 'Like';
    return { success: true, liked, hasLiked: liked, likeCount, count: likeCount };
  }

  for (const kind of KIND_NAMES) {
    const base = `/${KINDS[kind].path}/:id`;

    router.get(`${base}/comments`, async (req, res) => {
      const item = await visibleItem(req, kind);
      const { comments, position } = await listComments(pool, kind, item.id);
      atLogPosition(res, position).json(comments);
    });

    router.post(`${base}/comments`, async (req, res) => {
      const input = parseInput(CommentInput, req.body);
      const item = await visibleItem(req, kind);
      const commentId = await nextId(pool, 'comment_ids');
      const metadata = await metadataFor(req, deps);
      const stream = commentStream(commentId);
      const { lastPosition } = await store.transaction(async (tx) => {
        // the name and words are personal data of the commenter's subject (decision 050)
        const subjectId = await deps.personal.subjectFor(req.session!.visitorId, tx);
        const refs = await deps.personal.recordTexts(input, { stream, subjectId }, tx);
        const command = {
          type: 'PostComment' as const,
          data: { kind, itemId: item.id, commentId, ...refs },
          now: metadata.now,
        };
        return handleCommand(store, stream, commentDecider, command, metadata, { tx });
      });
      await readYourWrites(deps, res, lastPosition);
      res.status(201).json((await findComment(pool, commentId)) ?? { id: commentId, ...input, itemId: item.id, kind });
    });

    router.get(`${base}/likes/check`, async (req, res) => {
      const item = await visibleItem(req, kind);
      const { hasLiked, position } = await likes(req, kind, item.id);
      atLogPosition(res, position).json({ hasLiked });
    });
    router.get(`${base}/likes/count`, async (req, res) => {
      const { row, position } = await visibleItemAt(req, kind);
      atLogPosition(res, position).json({ count: row.like_count });
    });
    router.get(`${base}/likes`, async (req, res) => {
      const item = await visibleItem(req, kind);
      const { count, hasLiked, position } = await likes(req, kind, item.id);
      atLogPosition(res, position).json({ likeCount: count, count, hasLiked, liked: hasLiked });
    });
    router.post(`${base}/likes`, async (req, res) => res.json(await setLike(req, res, kind, 'Like')));
    router.delete(`${base}/likes`, async (req, res) => res.json(await setLike(req, res, kind, 'Unlike')));
    router.post(`${base}/like`, async (req, res) => res.json(await setLike(req, res, kind, 'Toggle')));

    /**
     * A first-party view count: a visitor counts once per item, and nothing leaves the server. A view
     * already counted writes nothing, not even the address row a new event's metadata would take.
     */
    router.post(`${base}/views`, async (req, res) => {
      const item = await visibleItem(req, kind);
      const { key, stream } = await keyFor(req, kind, item.id, viewStream);
      const viewed = (await store.aggregate(stream, viewDecider.evolve, viewDecider.initial)).state;
      if (!viewed) {
        const target = { kind, itemId: item.id, visitorKey: key };
        const metadata = await metadataFor(req, deps);
        const { lastPosition } = await handleCommand(store, stream, viewDecider, { type: 'View', target }, metadata);
        await readYourWrites(deps, res, lastPosition);
      }
      const after = await findItem(pool, kind, item.id, { admin: true });
      res.json({ viewCount: after?.view_count ?? item.view_count });
    });
  }

  const removeComment = (kind: Kind) => async (req: Request, res: Response) => {
    const commentId = idParam(req.params.commentId as string);
    const comment = commentId && (await findComment(pool, commentId, kind));
    if (!comment) throw notFound('Comment');
    const metadata = await metadataFor(req, deps);
    const remove = { type: 'RemoveComment' as const, now: metadata.now };
    const { lastPosition } = await handleCommand(store, commentStream(comment.id), commentDecider, remove, metadata);
    await readYourWrites(deps, res, lastPosition);
    res.json({ success: true, message: 'Comment deleted successfully' });
  };
  const keyed = requireAdminKey(config.adminKey);
  router.delete('/comments/:commentId', keyed, removeComment('artwork'));
  router.delete('/stories/comments/:commentId', keyed, removeComment('story'));
  router.delete('/media/comments/:commentId', keyed, removeComment('media'));

  return router;
}
