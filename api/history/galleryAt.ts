import type { Request, Response } from 'express';
import { z } from 'zod';
import { TimeTravel } from '#projections/timeTravel.ts';
import type { Deps } from '../deps.ts';
import { HttpError, parseInput } from '../http/errors.ts';
import { GalleryQuery } from '../gallery/query.ts';
import { dateIn } from '../time.ts';

export const atSeq = z.coerce
  .number({ error: 'at must be a seq' })
  .int('at must be a seq')
  .min(0, 'at must be a seq')
  .max(Number.MAX_SAFE_INTEGER, 'at must be a seq');

const AtQuery = GalleryQuery.extend({ at: atSeq });

const travels = new WeakMap<Deps, TimeTravel>();

/** The one time-travel connection of a server (decision 033): the gallery, show and mural questions share it. */
export function travelFor(deps: Deps): TimeTravel {
  let travel = travels.get(deps);
  if (!travel) travels.set(deps, (travel = new TimeTravel(deps.pool.options.connectionString!)));
  return travel;
}

/** The seq asked for, checked against the sealed head, and when that event was recorded. */
export async function sealedSeq(deps: Deps, at: number): Promise<{ at: number; recordedAt: Date | null }> {
  const { rows } = await deps.pool.query<{ head: number; recorded_at: Date | null }>(
    `SELECT (SELECT coalesce(max(seq), 0) FROM event_chain) AS head,
       (SELECT e.recorded_at FROM event_chain c JOIN events e ON e.position = c.position WHERE c.seq = $1) AS recorded_at`,
    [at],
  );
  const head = Number(rows[0]!.head);
  if (at > head) throw new HttpError(400, `at is past the end of the log (seq ${head})`);
  return { at, recordedAt: rows[0]!.recorded_at };
}

/**
 * `GET /api/gallery?at=SEQ` (CONTRACT §6): the gallery as it was right after event SEQ, for admins
 * and auditors, in today's shape plus `at`. Its order is the one of the day that event was recorded.
 */
export function galleryAtRoute(deps: Deps) {
  const travel = travelFor(deps);
  return async (req: Request, res: Response) => {
    if (!req.session) throw new HttpError(401, 'Authentication required');
    if (req.session.role !== 'admin' && req.session.role !== 'auditor') {
      throw new HttpError(403, 'Admin or auditor access required');
    }
    const { at, page, q } = parseInput(AtQuery, req.query);
    const { recordedAt } = await sealedSeq(deps, at);
    const day = dateIn(deps.config.timeZone, recordedAt ?? deps.clock());
    // never kept by the browser: an erasure must take its words out of the next look (decision 075)
    res.set('Cache-Control', 'private, no-store');
    res.json(await travel.page(at, { page, q, day }));
  };
}
