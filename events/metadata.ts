import { z } from 'zod';

export const Role = z.enum(['guest', 'admin', 'auditor', 'system']);
export type Role = z.infer<typeof Role>;

/** Who caused an event and when. Client addresses are stored as a reference to erasable personal data. */
export const EventMetadata = z.object({
  role: Role,
  visitorId: z.string().optional(),
  requestId: z.string().optional(),
  clientRef: z.number().int().optional(),
  /** the name an admin or auditor gave at login, as a reference to erasable personal data */
  actorRef: z.number().int().optional(),
  now: z.iso.datetime(),
});
export type EventMetadata = z.infer<typeof EventMetadata>;
