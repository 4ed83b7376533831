/**
 * "Your contributions" (CONTRACT §11): what one browser sent and what became of it. The server's
 * answer (`GET /api/mine`, `PATCH /api/mine/{kind}/{id}`) and the socket message `mine:changed`, as
 * the server builds them and the web reads them.
 */
import type { Kind } from './live.ts';

export const CONTRIBUTION_STATUSES = ['pending', 'approved', 'rejected', 'withdrawn'] as const;
export type ContributionStatus = (typeof CONTRIBUTION_STATUSES)[number];

/** The words a sender may change while their item is pending; what the item has of them. */
export interface ContributionText {
  title: string | null;
  /** artworks and media */
  description?: string | null;
  tags?: string | null;
  artistName?: string;
  /** stories */
  content?: string;
  authorName?: string;
  isAnonymous?: boolean;
}

export interface Contribution {
  kind: Kind;
  id: number;
  /** null when it has none, and once withdrawn (its words go with it) */
  title: string | null;
  status: ContributionStatus;
  submittedAt: string;
  /** when it was approved, rejected or withdrawn; null while pending */
  decidedAt: string | null;
  /** its words as they stand; null once withdrawn. Admin notes are never here. */
  text: ContributionText | null;
  /** an artwork's picture or a video's poster, once approved (guests may load them then) */
  thumbnailUrl: string | null;
}

export interface MineAnswer {
  items: Contribution[];
}

/** `mine:changed`: only to the sender's own sockets, when their item is decided. */
export interface MineChanged {
  position: number;
  kind: Kind;
  id: number;
  status: ContributionStatus;
}

/** The room of one browser's sockets (its visitor id never leaves the server). */
export const mineRoom = (visitorId: string) => `mine:${visitorId}`;
