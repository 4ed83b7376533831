import { Router } from 'express';
import { z } from 'zod';
import { verifyChain } from '#events/chain.ts';
import { exportNdjson } from '#events/export.ts';
import { requireRole } from '../auth/middleware.ts';
import type { Deps } from '../deps.ts';
import { idParam } from '../http/context.ts';
import { notFound, parseInput } from '../http/errors.ts';
import { KINDS } from '../kinds.ts';

const Page = z.object({
  after: z.coerce.number({ error: 'after must be a position' }).int().min(0).default(0),
  limit: z.coerce.number({ error: 'limit must be a number' }).int().min(1).max(1000).default(100),
  stream: z.string().max(200).optional(),
  type: z.string().max(100).optional(),
});

interface HistoryRow {
  position: number;
  stream_id: string;
  stream_version: number;
  type: string;
  data: unknown;
  metadata: unknown;
  recorded_at: Date;
  hash: string | null;
}

const toEvent = (r: HistoryRow) => ({
  position: r.position,
  streamId: r.stream_id,
  version: r.stream_version,
  type: r.type,
  data: r.data,
  metadata: r.metadata,
  recordedAt: r.recorded_at.toISOString(),
  hash: r.hash,
});

const SELECT = `SELECT e.position, e.stream_id, e.stream_version, e.type, e.data, e.metadata, e.recorded_at, c.hash
  FROM events e LEFT JOIN event_chain c ON c.position = e.position`;

/** The event history for admins and auditors (CONTRACT §3): read, verify, export. */
export function historyRoutes(deps: Deps) {
  const router = Router();
  const auditors = requireRole('admin', 'auditor');

  router.get('/admin/events', auditors, async (req, res) => {
    const { after, limit, stream, type } = parseInput(Page, req.query);
    const { rows } = await deps.pool.query<HistoryRow>(
      `${SELECT} WHERE e.position > $1 AND ($2::text IS NULL OR e.stream_id = $2) AND ($3::text IS NULL OR e.type = $3)
       ORDER BY e.position LIMIT $4`,
      [after, stream ?? null, type ?? null, limit],
    );
    res.json({ events: rows.map(toEvent), next: rows.length === limit ? rows.at(-1)!.position : null });
  });

  router.get('/admin/events/verify', auditors, async (_req, res) => {
    res.json(await verifyChain(deps.pool));
  });

  router.get('/admin/events/export', auditors, async (_req, res) => {
    res.type('application/x-ndjson');
    res.set('Content-Disposition', 'attachment; filename="tribute-gallery-events.ndjson"');
    await exportNdjson(deps.pool, res);
    res.end();
  });

  router.get('/admin/history/:kind/:id', auditors, async (req, res) => {
    const kind = Object.entries(KINDS).find(([k, v]) => k === req.params.kind || v.path === req.params.kind);
    const id = idParam(req.params.id as string);
    if (!kind || !id) throw notFound('Item');
    const [name, { stream }] = kind;
    // the item's own stream, and the comments and likes that name it
    const { rows } = await deps.pool.query<HistoryRow>(
      `${SELECT} WHERE e.stream_id = $1 OR (e.data->>'kind' = $2 AND e.data->>'itemId' = $3) ORDER BY e.position`,
      [stream(id), name, String(id)],
    );
    if (rows.length === 0) throw notFound(KINDS[name as keyof typeof KINDS].label);
    res.json({ events: rows.map(toEvent) });
  });

  return router;
}
