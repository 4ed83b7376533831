import type { Request } from 'express';
import type { Deps } from '../deps.ts';

export type SecurityEventName =
  | 'login.failed'
  | 'login.limited'
  | 'riddle.failed'
  | 'admin_key.failed'
  | 'admin_key.limited'
  | 'guessing.widespread'
  | 'request.limited'
  | 'cross_site.refused';

/**
 * One JSON line per security event on stderr. No secret and no raw personal data: the address is the
 * id of its erasable row in personal_data, the visitor an opaque id.
 */
export async function securityEvent(
  req: Request,
  { personal, clock }: Pick<Deps, 'personal' | 'clock'>,
  event: SecurityEventName,
  detail: Record<string, string | number | undefined> = {},
) {
  const clientRef = req.ip ? await personal.refForAddress(req.ip).catch(() => undefined) : undefined;
  const line = {
    time: clock().toISOString(),
    level: 'warn',
    security: event,
    route: `${req.method} ${req.baseUrl}${req.path}`,
    requestId: req.requestId,
    clientRef,
    visitorId: req.session?.visitorId ?? req.visitor,
    role: req.session?.role,
    ...detail,
  };
  process.stderr.write(`${JSON.stringify(line)}\n`);
}
