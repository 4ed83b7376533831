import type { DomainEvent, LegacyEvent } from '#events/catalog.ts';
import type { EventMetadata } from '#events/metadata.ts';

export const meta = (role: EventMetadata['role'] = 'guest'): EventMetadata => ({
  role,
  now: new Date().toISOString(),
});

/**
 * An artwork's submission as the log held it before names and words left it (v1, decision 050): its
 * values inline, read through the upcaster, so the tests that use it need no personal data rows.
 */
export function submitted(artworkId: number, overrides: Partial<Record<string, unknown>> = {}): LegacyEvent {
  return {
    type: 'ArtworkSubmitted',
    schemaVersion: 1,
    data: {
      artworkId,
      title: `Artwork ${artworkId}`,
      description: null,
      tags: null,
      artistName: 'Sam Painter',
      emailRef: 1,
      isFromCanvas: false,
      image: { key: `artworks/${artworkId}/original.png`, contentType: 'image/png', width: 10, height: 10, bytes: 100 },
      submittedAt: '2025-09-01T10:00:00.000Z',
      ...overrides,
    },
  } as LegacyEvent;
}

export const approved = (artworkId: number): DomainEvent => ({
  type: 'ArtworkApproved',
  data: { artworkId, adminNotesRef: null, approvedAt: '2025-09-02T10:00:00.000Z' },
});
