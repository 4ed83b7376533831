/**
 * The admin's query keys and the queue's shape, apart from the admin's queries: the live cache and
 * the guests' mutations name them, and a guest's first page should not load the admin's code.
 */
export const adminKeys = {
  all: ['admin'] as const,
  queue: ['admin', 'queue'] as const,
  pendingArtworks: ['admin', 'artworks', 'pending'] as const,
  archivedArtworks: ['admin', 'artworks', 'archived'] as const,
  pendingStories: ['admin', 'stories', 'pending'] as const,
  pendingMedia: ['admin', 'media', 'pending'] as const,
};
