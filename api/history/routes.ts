import { Router } from 'express';
import { z } from 'zod';
import { anchorStoreFor } from '#events/anchors.ts';
import type { VerifyResult } from '#events/chain.ts';
import { exportNdjson } from '#events/export.ts';
import { chainHead } from '#events/history.ts';
import type { Kind } from '#projections/catalog/items.ts';
import { listQuarantined } from '#projections/quarantine.ts';
import { requireRole } from '../auth/middleware.ts';
import type { Deps } from '../deps.ts';
import { erasePerson } from '../erasure.ts';
import { idParam, metadataFor } from '../http/context.ts';
import { notFound, parseInput } from '../http/errors.ts';
import { readYourWrites } from '../http/readYourWrites.ts';
import { KINDS, KIND_NAMES } from '../kinds.ts';
import { stageAtRoutes } from './stageAt.ts';
import { sendReadOffTheLoop } from './readOffTheLoop.ts';
import { verifyOffTheLoop } from './verifyOffTheLoop.ts';

const seqParam = (what: string) =>
  z.coerce
    .number({ error: `${what} must be a seq` })
    .int(`${what} must be a seq`)
    .min(0, `${what} must be a seq`);
const time = (what: string) => z.iso.datetime({ offset: true, error: `${what} must be an ISO date and time` });

/** A history page's query string: the filters and the page (CONTRACT §6). */
export const HistoryPage = z.object({
  after: seqParam('after').optional(),
  before: seqParam('before').optional(),
  limit: z.coerce.number({ error: 'limit must be a number' }).int().min(1).max(1000).default(100),
  order: z.enum(['asc', 'desc'], { error: "order must be 'asc' or 'desc'" }).default('asc'),
  stream: z.string().max(200).optional(),
  type: z.string().max(100).optional(),
  kind: z.enum(KIND_NAMES as [Kind, ...Kind[]], { error: 'kind must be artwork, story or media' }).optional(),
  actor: z.string().max(60).optional(),
  since: time('since').optional(),
  until: time('until').optional(),
});

const ExportRange = z.object({ from: seqParam('from').optional(), to: seqParam('to').optional() });

const Erase = z
  .object({
    email: z.string().trim().min(1).max(320).optional(),
    address: z.string().trim().min(1).max(100).optional(),
    name: z.string().trim().min(1).max(60).optional(),
  })
  .refine((v) => [v.email, v.address, v.name].filter(Boolean).length === 1, {
    message: 'Give exactly one of email, address or name',
  });

/**
 * The event history for admins and auditors (CONTRACT §6): in chain order, paged by seq, with each
 * event's link and actor; verify (which anchors the head), status, export, and one item's timeline.
 */
export function historyRoutes(deps: Deps) {
  const router = Router();
  const auditors = requireRole('admin', 'auditor');
  const anchors = anchorStoreFor(deps.config, deps.blobs);
  router.use(stageAtRoutes(deps));

  router.get('/admin/events', auditors, async (req, res) => {
    const filter = parseInput(HistoryPage, req.query);
    await sendReadOffTheLoop(deps, req, res, { what: 'page', filter });
  });

  router.get('/admin/events/verify', auditors, async (_req, res) => {
    // an auditor who leaves takes their verify with them: no thread hashes the chain for nobody
    const left = new AbortController();
    res.once('close', () => {
      if (!res.writableFinished) left.abort();
    });
    let result: VerifyResult;
    try {
      result = await verifyOffTheLoop(
        deps.databaseUrl,
        deps.config.auditStatementTimeoutMs,
        anchors,
        deps.clock,
        deps.auditorPace.clock,
        left.signal,
      );
    } catch (error) {
      if (left.signal.aborted) return; // no one to answer
      throw error;
    }
    res.json(result);
  });

  /**
   * The chain's state without walking it: the sealed head, the newest anchor, events not yet sealed, and
   * events a projection could not read and set aside.
   */
  router.get('/admin/events/status', auditors, async (_req, res) => {
    res.json({
      ...(await chainHead(deps.pool)),
      anchor: (await anchors.latest()) ?? null,
      anchoredIn: anchors.where,
      quarantined: await listQuarantined(deps.pool, 20),
    });
  });

  router.get('/admin/events/export', auditors, async (req, res) => {
    const { from, to } = parseInput(ExportRange, req.query);
    res.type('application/x-ndjson');
    res.set('Content-Disposition', 'attachment; filename="tribute-gallery-events.ndjson"');
    await exportNdjson(deps.pool, res, { from, to });
    res.end();
  });

  /**
   * `events erase` for an admin (CONTRACT §6): an email erases the person who gave it (their names,
   * words and named work, decision 050); an address or a login name is blanked. The chain stays.
   */
  router.post('/admin/erase', requireRole('admin'), async (req, res) => {
    const { email, address, name } = parseInput(Erase, req.body);
    if (email) {
      const erasure = await erasePerson(deps.store, deps.blobs, { email }, await metadataFor(req, deps));
      // the admin's next gallery page is without the person's items, as after any other write
      await readYourWrites(deps, res, erasure.position);
      res.json({ erased: erasure.values, kind: 'email', subjects: erasure.subjects, items: erasure.streams });
      return;
    }
    const erased = address ? await deps.personal.erase('ip', address) : await deps.personal.erase('name', name!);
    res.json({ erased, kind: address ? 'address' : 'name' });
  });

  router.get('/admin/history/:kind/:id', auditors, async (req, res) => {
    const entry = Object.entries(KINDS).find(([k, v]) => k === req.params.kind || v.path === req.params.kind);
    const id = idParam(req.params.id as string);
    if (!entry || !id) throw notFound('Item');
    const kind = entry[0] as Kind;
    const admin = req.session!.role === 'admin';
    const read = { what: 'item', stream: entry[1].stream(id), kind, id, admin } as const;
    await sendReadOffTheLoop(deps, req, res, read, () => notFound(KINDS[kind].label));
  });

  return router;
}
