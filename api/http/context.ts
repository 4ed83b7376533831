import type { Request } from 'express';
import type { EventMetadata } from '#events/metadata.ts';
import type { Deps } from '../deps.ts';

/**
 * Who is asking, as event metadata: time comes from here, never from inside decide(). No visitor id and
 * a fresh address reference per write: the log must not let an auditor link a person's anonymous work
 * to their named work (issue 13).
 */
export async function metadataFor(
  req: Request,
  { personal, clock }: Pick<Deps, 'personal' | 'clock'>,
): Promise<EventMetadata> {
  return {
    role: req.session?.role ?? 'guest',
    requestId: req.requestId,
    clientRef: req.ip ? await personal.recordAddress(req.ip) : undefined,
    actorRef:
      req.session && req.session.role !== 'guest' ? await personal.nameRefForSession(req.session.tokenHash) : undefined,
    now: clock().toISOString(),
  };
}

/** A positive integer id from the path, or undefined (answered as 404 by the caller). */
export function idParam(raw: string | undefined): number | undefined {
  if (!raw || !/^\d{1,15}$/.test(raw)) return undefined;
  const id = Number(raw);
  return id > 0 ? id : undefined;
}
